// Reading files of one side of a comparison: their sizes and modes at a commit (one ls-tree per
// batch of paths, literal pathspecs) and their text (createGitReader), refusing what is too
// large, not a regular file, or binary. Never writes.
import { createHash } from 'node:crypto';

import { classifyContent, createGitReader, runGit, SNIFF_BYTES } from '../walk/index.js';
import type { SymbolDiffState } from './types.js';

const BATCH = 200;

/** A blob's mode and size at a commit. */
export interface BlobInfo {
  mode: string;
  size: number;
}

/** Mode and size of each of `paths` at `commit` (paths git does not have are absent). */
export async function blobInfo(
  repo: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, BlobInfo>> {
  const info = new Map<string, BlobInfo>();
  const asked = paths.filter((p) => p !== '' && !p.includes('\0'));
  for (let i = 0; i < asked.length; i += BATCH) {
    const batch = asked.slice(i, i + BATCH);
    const out = await runGit(repo, [
      '--literal-pathspecs',
      'ls-tree',
      '--long',
      '-z',
      commit,
      '--',
      ...batch,
    ]);
    for (const line of out.toString('utf8').split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode = '', type = '', , size = ''] = line.slice(0, tab).split(/ +/);
      if (type === 'blob') info.set(line.slice(tab + 1), { mode, size: Number(size) });
    }
  }
  return info;
}

/** The text of a file at a side, or why it cannot be compared. */
export type SideText = { text: string; sha256: string } | { skip: SymbolDiffState };

/** A reader of one side: checks mode and size, reads, sniffs for binary content. */
export function sideReader(
  repo: string,
  commit: string,
  info: Map<string, BlobInfo>,
  maxFileBytes: number,
) {
  const read = createGitReader(repo, commit, maxFileBytes + 1);
  return async (path: string): Promise<SideText> => {
    const blob = info.get(path);
    if (blob === undefined || !blob.mode.startsWith('100')) return { skip: 'unreadable' };
    if (blob.size > maxFileBytes) return { skip: 'too_large' };
    let bytes: Buffer;
    try {
      bytes = await read(path);
    } catch {
      return { skip: 'unreadable' };
    }
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
