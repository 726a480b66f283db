// Reading the files of one side of a comparison in one `git cat-file --batch`: their text, or
// why it cannot be compared (too large, binary, not there). Never writes.
import { createHash } from 'node:crypto';

import { classifyContent, readBlobs, SNIFF_BYTES } from '../walk/index.js';
import type { SymbolDiffState } from './types.js';

/** Bytes one side reads at most in total; files past it are left as `file_limit`. */
export const SIDE_TOTAL_BYTES = 64 * 1024 * 1024;

/** The text of a file at a side, or why it cannot be compared. */
export type SideText = { text: string; sha256: string } | { skip: SymbolDiffState };

/** Reads `paths` at `commit` and answers, per path, its text or why it was skipped. */
export async function readSide(
  repo: string,
  commit: string,
  paths: readonly string[],
  maxFileBytes: number,
): Promise<(path: string) => SideText> {
  const batch = await readBlobs(repo, commit, [...new Set(paths)], {
    maxFileBytes,
    maxTotalBytes: SIDE_TOTAL_BYTES,
  });
  return (path) => {
    if (batch.tooLarge.has(path)) return { skip: 'too_large' };
    const bytes = batch.blobs.get(path);
    if (bytes === undefined) return { skip: batch.missing.has(path) ? 'unreadable' : 'file_limit' };
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (classifyContent(bytes.subarray(0, SNIFF_BYTES), name) === 'binary')
      return { skip: 'binary' };
    return {
      text: bytes.toString('utf8'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  };
}

/** Runs `fn` over `items` with at most `width` in flight, results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}
