// How many indexed work-tree files changed since the index, for a search answer: a bounded
// stat of code_files (size and mtime against the disk, never a read), and a short-lived cache
// so a burst of searches stats once. The indexer's `freshness(collection)` answers the same
// question (with git refs too) and replaces the default where it is wired.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';

import type { Queryable } from '../../store/index.js';
import type { FreshnessCounts } from './types.js';

export interface StatBudget {
  /** Files stat'ed at most (default 2,000). */
  maxFiles: number;
  /** Time budget in ms (default 150). */
  ms: number;
}

const DEFAULT_BUDGET: StatBudget = { maxFiles: 2_000, ms: 150 };
const AT_ONCE = 64;

/** A repository-relative path under `root`, or null when it would leave it. */
function under(root: string, path: string): string | null {
  if (isAbsolute(path) || normalize(path).split(/[\\/]/)[0] === '..') return null;
  return join(root, path);
}

/** Stats the work-tree files of one collection (branch ''), within the budget. */
export async function statFreshness(
  q: Queryable,
  collection: string,
  budget: StatBudget = DEFAULT_BUDGET,
): Promise<FreshnessCounts> {
  const row = await q.get<{ id: number; root: string }>(
    'SELECT id, root FROM code_collections WHERE name = ?',
    [collection],
  );
  const out: Required<FreshnessCounts> = {
    changed: 0,
    missing: 0,
    checked: 0,
    total: 0,
    complete: true,
  };
  if (row === undefined) return out;
  const files = await q.all<{ path: string; size: number; mtime_ms: number }>(
    `SELECT path, size, mtime_ms FROM code_files WHERE collection_id = ? AND branch = ''
     ORDER BY path LIMIT ?`,
    [row.id, budget.maxFiles + 1],
  );
  const total = await q.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM code_files WHERE collection_id = ? AND branch = ''",
    [row.id],
  );
  out.total = total?.n ?? files.length;
  const deadline = Date.now() + budget.ms;
  const limit = Math.min(files.length, budget.maxFiles);
  for (let i = 0; i < limit && Date.now() < deadline; i += AT_ONCE) {
    const part = files.slice(i, Math.min(limit, i + AT_ONCE));
    const stats = await Promise.all(
      part.map((f) => {
        const abs = under(row.root, f.path);
        return abs === null ? null : stat(abs).catch(() => null);
      }),
    );
    part.forEach((f, j) => {
      const st = stats[j];
      if (st === null || st === undefined || !st.isFile()) out.missing += 1;
      else if (st.size !== f.size || Math.trunc(st.mtimeMs) !== f.mtime_ms) out.changed += 1;
    });
    out.checked += part.length;
  }
  out.complete = out.checked === out.total;
  return out;
}

/** `check` behind a per-name cache of `ttlMs` (failures are not cached). */
export function cachedFreshness(
  check: (collection: string) => Promise<FreshnessCounts>,
  ttlMs: number,
  clock: () => number,
): (collection: string) => Promise<FreshnessCounts> {
  const cache = new Map<string, { at: number; answer: Promise<FreshnessCounts> }>();
  return (collection) => {
    const hit = cache.get(collection);
    if (hit !== undefined && clock() - hit.at < ttlMs) return hit.answer;
    const answer = check(collection);
    cache.set(collection, { at: clock(), answer });
    answer.catch(() => cache.delete(collection));
    if (cache.size > 256) cache.delete(cache.keys().next().value ?? collection);
    return answer;
  };
}
