// Reads what status() reports: a collection's row, its branches, its running and latest jobs.
// Read-only; the stale sweep runs before it (code-index.ts).
import type { Queryable } from '../../store/index.js';
import { type CollectionRow, optionsOf } from './collection-rows.js';
import { jobStatusOf, latestJob, liveJob } from './job-rows.js';
import type { CollectionStatus } from './types.js';

/** The status of one collection, as of `now`. */
export async function collectionStatus(
  q: Queryable,
  row: CollectionRow,
  now: number,
): Promise<CollectionStatus> {
  const branches = await q.all<{ branch: string }>(
    'SELECT DISTINCT branch FROM code_files WHERE collection_id = ? ORDER BY branch',
    [row.id],
  );
  const live = await liveJob(q, row.id);
  const latest = await latestJob(q, row.id);
  const options = optionsOf(row);
  return {
    collection: row.name,
    root: row.root,
    mode: row.mode,
    state: row.state,
    watch: row.watch !== 0,
    branches: branches.map((b) => b.branch),
    files: row.files,
    chunks: row.chunks,
    lines: row.lines,
    bytes: row.bytes,
    indexedAt: row.indexed_at,
    ageMs: row.indexed_at === null ? null : Math.max(0, now - row.indexed_at),
    lastError: row.last_error,
    repoId: row.repo_id,
    projectId: row.project_id,
    options: {
      ...(options.filters ?? {}),
      ...(options.refs === undefined ? {} : { refs: options.refs }),
    },
    running: live === undefined ? null : jobStatusOf(live, now),
    lastJob: latest === undefined ? null : jobStatusOf(latest, now),
  };
}
