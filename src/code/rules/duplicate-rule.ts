// The duplication rules within one file: duplicate-function (two functions whose bodies, every
// line after the signature trimmed and blank lines dropped, are identical) and duplicate-block
// (token-window clones below function level, see clones.ts). Read the shared tree and text only.
import type { FunctionMetrics } from '../metrics/index.js';
import { createCloneIndex, spanLines, tokenStream } from './clones.js';
import { METRIC_LANGUAGES } from './metric-rules.js';
import { DEFAULT_THRESHOLDS, type RawFinding, type Rule, type RuleContext } from './types.js';

/** The normalised body lines of `fn`: every line after its first, trimmed, blanks dropped. */
function bodyOf(lines: readonly string[], fn: FunctionMetrics): string[] {
  return lines
    .slice(fn.startLine, fn.endLine)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** A function repeating an earlier one's body. */
interface FunctionCopy {
  readonly copy: FunctionMetrics;
  readonly original: FunctionMetrics;
}

/** The functions whose body repeats an earlier function's (nested copies reported once). */
function functionCopies(context: RuleContext): FunctionCopy[] {
  const lines = context.text.split('\n');
  const min = context.thresholds.duplicateLines;
  const seen = new Map<string, FunctionMetrics>();
  const copies: FunctionCopy[] = [];
  let reportedUntil = 0;
  for (const fn of context.metrics.functions) {
    const body = bodyOf(lines, fn);
    if (body.length < min) continue;
    const key = body.join('\n');
    const original = seen.get(key);
    if (original === undefined) {
      seen.set(key, fn);
    } else if (fn.startLine > reportedUntil) {
      copies.push({ copy: fn, original });
      reportedUntil = fn.endLine;
    }
  }
  return copies;
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
  check(context): RawFinding[] {
    return functionCopies(context).map(({ copy, original }) => ({
      line: copy.startLine,
      column: 1,
      message: `${copy.name} (lines ${copy.startLine}–${copy.endLine}) repeats the body of ${original.name} (lines ${original.startLine}–${original.endLine})`,
    }));
  },
};

export const DUPLICATE_BLOCK_RULE: Rule = {
  id: 'duplicate-block',
  category: 'duplication',
  severity: 'warning',
  languages: METRIC_LANGUAGES,
  description:
    'A run of at least `duplicateTokens` tokens spanning at least `duplicateLines` lines that repeats an earlier run in the same file, comments and layout ignored (a whole repeated function is duplicate-function’s, not reported twice).',
  threshold: 'duplicateTokens',
  defaultThreshold: DEFAULT_THRESHOLDS.duplicateTokens,
  check(context): RawFinding[] {
    const { duplicateTokens, duplicateLines } = context.thresholds;
    const index = createCloneIndex({
      minTokens: Math.max(1, duplicateTokens),
      minLines: duplicateLines,
      withinFile: true,
    });
    const stream = tokenStream(context.root, context.text, new Map());
    const copies = functionCopies(context).map((c) => c.copy);
    return index.add(stream).flatMap((clone) => {
      const copy = spanLines(stream, clone.copy);
      const original = spanLines(stream, clone.original);
      const inCopiedFunction = copies.some(
        (fn) => fn.startLine <= copy.line && copy.endLine <= fn.endLine,
      );
      if (inCopiedFunction) return [];
      const tokens = clone.copy.end - clone.copy.start;
      const message = `lines ${copy.line}–${copy.endLine} repeat lines ${original.line}–${original.endLine} (${tokens} tokens)`;
      return [{ line: copy.line, column: 1, message }];
    });
  },
};
