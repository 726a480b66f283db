// How many indexed work-tree files changed since the index: one stat per stored row
// (code_files, branch ''), size and mtime compared, bounded in rows and in time. It sees edits
// and deletions, not new files (that needs a walk). The indexer's own freshness check, when it
// lands, should replace this.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { Store } from '../../store/index.js';

/** Rows stat'ed at most, and the time allowed. */
export const FRESHNESS_MAX_FILES = 2000;
export const FRESHNESS_BUDGET_MS = 250;

export interface WorkTreeFreshness {
  /** Indexed work-tree files, and how many were checked. */
  total: number;
  checked: number;
  /** Size or mtime differs from the index. */
  changed: number;
  /** Gone from disk. */
  missing: number;
  /** Every row was checked (false: the row or time bound stopped it). */
  complete: boolean;
  /** Up to 10 changed or missing paths. */
  sample: string[];
}

interface FileRow {
  path: string;
  size: number;
  mtime_ms: number;
}

function sameTime(disk: number, stored: number): boolean {
  // The indexer may have floored or rounded the float mtime.
  return Math.trunc(disk) === stored || Math.round(disk) === stored;
}

/** Stats the indexed work-tree files of collection `id` under `root`. */
export async function checkWorkTree(
  store: Store,
  id: number,
  root: string,
  limits: { maxFiles?: number; budgetMs?: number; clock?: () => number } = {},
): Promise<WorkTreeFreshness> {
  const maxFiles = limits.maxFiles ?? FRESHNESS_MAX_FILES;
  const clock = limits.clock ?? (() => performance.now());
  const deadline = clock() + (limits.budgetMs ?? FRESHNESS_BUDGET_MS);
  const total = await store.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM code_files WHERE collection_id = ? AND branch = ''",
    [id],
  );
  const rows = await store.all<FileRow>(
    `SELECT path, size, mtime_ms FROM code_files WHERE collection_id = ? AND branch = ''
     ORDER BY path LIMIT ${maxFiles}`,
    [id],
  );
  const result: WorkTreeFreshness = {
    total: total?.n ?? 0,
    checked: 0,
    changed: 0,
    missing: 0,
    complete: false,
    sample: [],
  };
  for (const row of rows) {
    if (clock() > deadline) break;
    result.checked++;
    const disk = await stat(join(root, row.path)).catch(() => null);
    if (disk !== null && disk.size === row.size && sameTime(disk.mtimeMs, row.mtime_ms)) continue;
    if (disk === null) result.missing++;
    else result.changed++;
    if (result.sample.length < 10) result.sample.push(row.path);
  }
  result.complete = result.checked === result.total;
  return result;
}
