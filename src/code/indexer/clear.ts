// Removes a collection and everything in it. A running job is cancelled first (in the same
// transaction that empties the collection's state, so no search reads it as ready), then files
// go in bounded transactions (chunks and references cascade), then the collection row.
import type { Store } from '../../store/index.js';
import type { CollectionRow } from './collection-rows.js';
import { cancelJobRow } from './job-control.js';
import { liveJob } from './job-rows.js';
import type { ClearResult } from './types.js';

/** Files deleted per transaction. */
const FILES_PER_STEP = 200;

/** Clears `row` (see the file comment); `now` stamps the cancel. */
export async function clearCollection(
  store: Store,
  row: CollectionRow,
  now: number,
): Promise<ClearResult> {
  const cancelled = await store.write(async (tx) => {
    const live = await liveJob(tx, row.id);
    if (live !== undefined)
      await cancelJobRow(tx, live, 'cancelled: the collection was cleared', now);
    await tx.run("UPDATE code_collections SET state = 'empty', updated_at = ? WHERE id = ?", [
      now,
      row.id,
    ]);
    return live?.id ?? null;
  });
  const counts = await store.get<{ files: number; chunks: number }>(
    `SELECT (SELECT COUNT(*) FROM code_files WHERE collection_id = ?) AS files,
            (SELECT COUNT(*) FROM code_chunks WHERE collection_id = ?) AS chunks`,
    [row.id, row.id],
  );
  for (;;) {
    const r = await store.write((tx) =>
      tx.run(
        `DELETE FROM code_files WHERE id IN
           (SELECT id FROM code_files WHERE collection_id = ? LIMIT ${FILES_PER_STEP})`,
        [row.id],
      ),
    );
    if (r.changes === 0) break;
  }
  await store.write(async (tx) => {
    await tx.run('DELETE FROM code_commits WHERE collection_id = ?', [row.id]);
    await tx.run('DELETE FROM code_collections WHERE id = ?', [row.id]);
  });
  return {
    collection: row.name,
    files: counts?.files ?? 0,
    chunks: counts?.chunks ?? 0,
    cancelledJob: cancelled,
  };
}
