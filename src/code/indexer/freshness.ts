// The cheap freshness check: stat every indexed work-tree file (size and mtime against the index;
// never read), within a time and file budget, and ask git whether indexed refs moved. New files
// are not found this way (that needs a walk): the report says so.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { Queryable } from '../../store/index.js';
import { resolveRef } from '../walk/index.js';
import { type CollectionRow, optionsOf } from './collection-rows.js';
import type { FreshnessReport } from './types.js';

export interface FreshnessBudget {
  /** Most files stat'ed (default 100,000). */
  maxFiles: number;
  /** Time budget (default 1,000 ms). */
  ms: number;
}

const STATS_AT_ONCE = 64;
const SAMPLE = 10;

async function movedRefs(row: CollectionRow): Promise<string[]> {
  const moved: string[] = [];
  for (const [ref, commit] of Object.entries(optionsOf(row).refs ?? {})) {
    const now = await resolveRef(row.root, ref).catch(() => null);
    if (now !== commit) moved.push(ref);
  }
  return moved;
}

/** Checks `row`'s work-tree files against the disk and its refs against git. */
export async function checkFreshness(
  q: Queryable,
  row: CollectionRow,
  now: number,
  budget: FreshnessBudget,
): Promise<FreshnessReport> {
  const files = await q.all<{ path: string; size: number; mtime_ms: number }>(
    "SELECT path, size, mtime_ms FROM code_files WHERE collection_id = ? AND branch = '' ORDER BY path",
    [row.id],
  );
  const deadline = Date.now() + budget.ms;
  const limit = Math.min(files.length, budget.maxFiles);
  const report: FreshnessReport = {
    collection: row.name,
    indexedAt: row.indexed_at,
    ageMs: row.indexed_at === null ? null : Math.max(0, now - row.indexed_at),
    checked: 0,
    total: files.length,
    changed: 0,
    missing: 0,
    sample: [],
    movedRefs: row.mode === 'git' ? await movedRefs(row) : [],
    complete: true,
    note: 'stat only: files added since the index are not detected; re-index to find them',
  };
  for (let i = 0; i < limit && Date.now() < deadline; i += STATS_AT_ONCE) {
    const part = files.slice(i, Math.min(limit, i + STATS_AT_ONCE));
    const stats = await Promise.all(
      part.map((f) => stat(join(row.root, f.path)).catch(() => null)),
    );
    part.forEach((f, j) => {
      const st = stats[j];
      const gone = st === null || st === undefined || !st.isFile();
      const differs = !gone && (st.size !== f.size || Math.trunc(st.mtimeMs) !== f.mtime_ms);
      if (gone) report.missing += 1;
      else if (differs) report.changed += 1;
      if ((gone || differs) && report.sample.length < SAMPLE) report.sample.push(f.path);
    });
    report.checked += part.length;
  }
  report.complete = report.checked === files.length;
  return report;
}
