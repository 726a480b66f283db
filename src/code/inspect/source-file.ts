// Resolves the `path` of validate_code / analyze_code inside the allowed roots and reads one
// source file for it: a regular file, not binary, not too large, in a language with a grammar.
// Every refusal is an InvalidInputError naming `path`; nothing outside the roots is touched.
import { open, stat } from 'node:fs/promises';

import { InvalidInputError } from '../../shared/index.js';
import { CODE_LANGUAGES, type CodeLanguage, languageOf } from '../languages.js';
import {
  allowedRootsOf,
  type AllowedPath,
  classifyContent,
  resolveAllowedPath,
  SNIFF_BYTES,
} from '../walk/index.js';

/** One file's text, ready for validateSource / analyzeSource. */
export interface SourceText {
  readonly language: CodeLanguage;
  readonly text: string;
}

/** The canonical target of `path`, checked against the allowed roots (PathRefusedError). */
export function resolveTarget(
  path: string,
  allowedRoots: readonly string[],
  cwd?: string,
): Promise<AllowedPath> {
  return resolveAllowedPath(path, allowedRootsOf(allowedRoots), cwd);
}

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

const refuse = (shown: string, why: string): InvalidInputError =>
  new InvalidInputError(`path ${JSON.stringify(shown)} ${why}`, 'path');

/** The syntax language of `shown`, or an InvalidInputError (`path`) naming the known ones. */
export function languageOrRefuse(shown: string): CodeLanguage {
  const language = languageOf(shown);
  if (language !== null) return language;
  throw refuse(shown, `is not in a language with a grammar (${CODE_LANGUAGES.join(', ')})`);
}

/**
 * Reads the file at canonical `real` (shown to the caller as `shown`).
 * @throws InvalidInputError (`path`): not a regular file, over `maxBytes`, binary, or not UTF-8
 *   text in a known language.
 */
export async function readSourceFile(
  real: string,
  shown: string,
  maxBytes: number,
): Promise<SourceText> {
  const language = languageOrRefuse(shown);
  const st = await stat(real);
  if (!st.isFile()) throw refuse(shown, 'is not a regular file');
  if (st.size > maxBytes) {
    throw refuse(shown, `is ${mib(st.size)}, over the ${mib(maxBytes)} a file may be`);
  }
  const handle = await open(real, 'r');
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (bytes.length > maxBytes) {
    throw refuse(shown, `is over the ${mib(maxBytes)} a file may be`);
  }
  if (classifyContent(bytes.subarray(0, SNIFF_BYTES), shown) === 'binary') {
    throw refuse(shown, 'is a binary file, not source text');
  }
  return { language, text: bytes.toString('utf8') };
}
