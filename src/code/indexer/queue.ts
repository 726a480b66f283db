// Queues a job: in one transaction, records who asked, creates or checks the collection, and
// either finds the job already running for it or inserts a new `queued` one and marks the
// collection `indexing`. At most one live job per collection, whichever process asks.
import { randomBytes } from 'node:crypto';

import type { Provenance } from '../../activity/index.js';
import { originIdentity } from '../../activity/index.js';
import type { Store } from '../../store/index.js';
import { runGitRaw } from '../walk/index.js';
import { type CollectionRow, openCollection, type RepoIdentity } from './collection-rows.js';
import { type JobRow, liveJob, loadJob } from './job-rows.js';
import type { JobParams } from './params.js';
import { recordProvenance } from './provenance-row.js';

/** Job ids sort by creation time: base-36 milliseconds, then random digits. */
export function newJobId(now: number): string {
  return `job-${now.toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`;
}

/** The repository identity of the root's origin remote (nulls outside git or without one). */
export async function repoIdentity(root: string): Promise<RepoIdentity> {
  try {
    const out = await runGitRaw(root, ['config', '--get', 'remote.origin.url'], 64 * 1024);
    const id = out.code === 0 ? originIdentity(out.stdout.toString('utf8')) : undefined;
    return { repoId: id?.repo_id ?? null, projectId: id?.project_id ?? null };
  } catch {
    return { repoId: null, projectId: null };
  }
}

export interface Queued {
  row: JobRow;
  alreadyRunning: boolean;
  provenanceId: number;
  collection: CollectionRow;
}

/** Who asked: a provenance record (a tool call), or the id of one recorded before (a watcher). */
export type Asker = { provenance: Provenance } | { provenanceId: number };

/** Queues a job for `params` (see the file comment), as this process on `at.host`. */
export function queueJob(
  store: Store,
  params: JobParams,
  asker: Asker,
  repo: RepoIdentity,
  watch: boolean | undefined,
  at: { now: number; host: string },
): Promise<Queued> {
  const { now, host } = at;
  const id = newJobId(now);
  return store.write(async (tx) => {
    const provenanceId =
      'provenanceId' in asker
        ? asker.provenanceId
        : await recordProvenance(tx, asker.provenance, now);
    const collection = await openCollection(tx, params, repo, provenanceId, now);
    if (watch !== undefined) {
      await tx.run('UPDATE code_collections SET watch = ? WHERE id = ?', [
        watch ? 1 : 0,
        collection.id,
      ]);
    }
    const live = await liveJob(tx, collection.id);
    if (live !== undefined) return { row: live, alreadyRunning: true, provenanceId, collection };
    const { allowedRoots: _roots, matchesEverything: _all, ...asked } = params;
    await tx.run(
      `INSERT INTO code_jobs (id, collection_id, action, state, phase, params, pid, host,
         provenance_id, created_at) VALUES (?, ?, ?, 'queued', 'queued', ?, ?, ?, ?, ?)`,
      [
        id,
        collection.id,
        params.action,
        JSON.stringify(asked),
        process.pid,
        host,
        provenanceId,
        now,
      ],
    );
    await tx.run(
      `UPDATE code_collections SET state = 'indexing', provenance_id = ?, repo_id = COALESCE(?, repo_id),
         project_id = COALESCE(?, project_id), updated_at = ? WHERE id = ?`,
      [provenanceId, repo.repoId, repo.projectId, now, collection.id],
    );
    const row = await loadJob(tx, id);
    if (row === undefined) throw new Error('code_jobs row vanished inside its transaction');
    return { row, alreadyRunning: false, provenanceId, collection };
  });
}
