// Keeps an answer bounded: how many items of a list fit in a count and a JSON byte budget, and
// the hint that tells the caller how to narrow the next call. Pure.
import type { TruncatedBy } from './types.js';

/** The leading items of `items` that fit: at most `maxShown`, at most `maxBytes` of JSON. */
export function fitToBudget<T>(items: readonly T[], maxShown: number, maxBytes: number): T[] {
  const shown: T[] = [];
  let bytes = 2;
  for (const item of items) {
    if (shown.length >= maxShown) break;
    bytes += Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (bytes > maxBytes && shown.length > 0) break;
    shown.push(item);
  }
  return shown;
}

const WHY: Readonly<Record<TruncatedBy, string>> = {
  shown: 'the answer holds only part of what was found',
  files: 'the file cap was reached before every file was read',
  time: 'the time budget ran out before every file was read',
  walk: 'the walk stopped at its entry cap',
  cancelled: 'the call was cancelled',
  duplicates:
    'the cross-file duplicate scan spent its token budget and compared only the files before it',
};

/** One sentence per reason, then how to narrow. */
export function truncationHint(by: readonly TruncatedBy[], narrow: string): string {
  const reasons = [...new Set(by)].map((b) => WHY[b]);
  return `${reasons.join('; ')}. Narrow it: ${narrow}.`;
}
