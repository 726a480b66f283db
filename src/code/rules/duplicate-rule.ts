// The duplicate-function rule: two functions in one file whose bodies (every line after the
// signature line, trimmed, blank lines dropped) are identical. Within one file only; reading
// the text already split by lines, never reparsing.
import type { FunctionMetrics } from '../metrics/index.js';
import { METRIC_LANGUAGES } from './metric-rules.js';
import { DEFAULT_THRESHOLDS, type RawFinding, type Rule, type RuleContext } from './types.js';

/** The normalised body lines of `fn`: every line after its first, trimmed, blanks dropped. */
function bodyOf(lines: readonly string[], fn: FunctionMetrics): string[] {
  return lines
    .slice(fn.startLine, fn.endLine)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

function findDuplicates(context: RuleContext): RawFinding[] {
  const lines = context.text.split('\n');
  const min = context.thresholds.duplicateLines;
  const seen = new Map<string, FunctionMetrics>();
  const findings: RawFinding[] = [];
  let reportedUntil = 0;
  for (const fn of context.metrics.functions) {
    const body = bodyOf(lines, fn);
    if (body.length < min) continue;
    const key = body.join('\n');
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, fn);
    } else if (fn.startLine > reportedUntil) {
      findings.push({
        line: fn.startLine,
        column: 1,
        message: `${fn.name} (lines ${fn.startLine}–${fn.endLine}) repeats the body of ${first.name} (lines ${first.startLine}–${first.endLine})`,
      });
      reportedUntil = fn.endLine;
    }
  }
  return findings;
}

export const DUPLICATE_RULE: Rule = {
  id: 'duplicate-function',
  category: 'duplication',
  severity: 'warning',
  languages: METRIC_LANGUAGES,
  description:
    'A function whose body (at least `duplicateLines` non-blank lines after the signature) repeats an earlier function in the same file.',
  threshold: 'duplicateLines',
  defaultThreshold: DEFAULT_THRESHOLDS.duplicateLines,
  check: findDuplicates,
};
