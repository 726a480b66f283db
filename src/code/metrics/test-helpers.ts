// Test helpers for the metrics tests: analyse a snippet and pick one function by name.
// Test-only (imported by *.test.ts); never imported by the module itself.
import type { CodeLanguage } from '../languages.js';
import { analyzeSource, type FileMetrics, type FunctionMetrics } from './analyze.js';

/** Analyses `text` as `language` under a made-up path. */
export function analyze(language: CodeLanguage, text: string): Promise<FileMetrics> {
  return analyzeSource({ path: `sample.${language}`, language, text });
}

/** The metrics of the function called `name` in `text` (fails the test when absent). */
export async function fn(
  language: CodeLanguage,
  text: string,
  name: string,
): Promise<FunctionMetrics> {
  const file = await analyze(language, text);
  const found = file.functions.find((f) => f.name === name);
  if (found === undefined) {
    throw new Error(`no function ${name} in ${file.functions.map((f) => f.name).join(', ')}`);
  }
  return found;
}
