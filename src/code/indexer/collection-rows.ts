// The `code_collections` rows: created or checked when a job starts, marked `indexing` while it
// runs, and on the way out either brought up to date (`ready`, a new `indexed_at`) or restored
// (`ready` with the previous `indexed_at`, or `failed` when there never was a complete index).
import { InvalidInputError } from '../../shared/index.js';
import type { Queryable } from '../../store/index.js';
import type { JobParams } from './params.js';
import type { CollectionState } from './types.js';

/** Bumped when chunking changes what it produces: a collection built otherwise re-chunks all. */
export const CHUNK_FORMAT = 1;

export interface CollectionRow {
  id: number;
  name: string;
  root: string;
  mode: 'filesystem' | 'git';
  options: string;
  repo_id: string | null;
  project_id: string | null;
  state: CollectionState;
  watch: number;
  files: number;
  chunks: number;
  lines: number;
  bytes: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  indexed_at: number | null;
}

/** What `options` holds: the filters the index was built with, and the refs' commits. */
export interface CollectionOptions {
  action?: JobParams['action'];
  filters?: JobParams['filters'];
  /** git mode: ref → the commit indexed. */
  refs?: Record<string, string>;
  format?: number;
}

export function optionsOf(row: Pick<CollectionRow, 'options'>): CollectionOptions {
  try {
    const value: unknown = JSON.parse(row.options);
    return typeof value === 'object' && value !== null ? (value as CollectionOptions) : {};
  } catch {
    return {};
  }
}

const SELECT = `SELECT id, name, root, mode, options, repo_id, project_id, state, watch, files,
  chunks, lines, bytes, last_error, created_at, updated_at, indexed_at FROM code_collections`;

export function findCollection(q: Queryable, name: string): Promise<CollectionRow | undefined> {
  return q.get<CollectionRow>(`${SELECT} WHERE name = ?`, [name]);
}

export function allCollections(q: Queryable): Promise<CollectionRow[]> {
  return q.all<CollectionRow>(`${SELECT} ORDER BY name`);
}

/** Where the collection's repository comes from (origin), when the root is in a git work tree. */
export interface RepoIdentity {
  repoId: string | null;
  projectId: string | null;
}

/**
 * The collection `params` names: created (state `empty`) on first use; an existing one must
 * index the same root. Throws InvalidInputError (field `collection`) when it indexes another.
 */
export async function openCollection(
  tx: Queryable,
  params: JobParams,
  repo: RepoIdentity,
  provenanceId: number,
  now: number,
): Promise<CollectionRow> {
  const found = await findCollection(tx, params.collection);
  if (found !== undefined) {
    if (found.root !== params.root) {
      throw new InvalidInputError(
        `collection ${params.collection} already indexes ${found.root}; name another collection or clear it first`,
        'collection',
      );
    }
    return found;
  }
  await tx.run(
    `INSERT INTO code_collections (name, root, mode, options, repo_id, project_id, state,
       provenance_id, created_at, updated_at)
     VALUES (?, ?, ?, '{}', ?, ?, 'empty', ?, ?, ?)`,
    [
      params.collection,
      params.root,
      params.action === 'git_index' ? 'git' : 'filesystem',
      repo.repoId,
      repo.projectId,
      provenanceId,
      now,
      now,
    ],
  );
  const created = await findCollection(tx, params.collection);
  if (created === undefined)
    throw new Error('code_collections row vanished inside its transaction');
  return created;
}

/** Recomputes the collection's totals from its files and chunks. */
async function refreshTotals(tx: Queryable, id: number): Promise<void> {
  const files = await tx.get<{ n: number; lines: number | null; bytes: number | null }>(
    'SELECT COUNT(*) AS n, SUM(lines) AS lines, SUM(size) AS bytes FROM code_files WHERE collection_id = ?',
    [id],
  );
  const chunks = await tx.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM code_chunks WHERE collection_id = ?',
    [id],
  );
  await tx.run(
    'UPDATE code_collections SET files = ?, chunks = ?, lines = ?, bytes = ? WHERE id = ?',
    [files?.n ?? 0, chunks?.n ?? 0, files?.lines ?? 0, files?.bytes ?? 0, id],
  );
}

/** The job finished: the index is complete as of `indexedAt` (when the job began reading). */
export async function completeCollection(
  tx: Queryable,
  id: number,
  update: { indexedAt: number; options: CollectionOptions; mode: 'filesystem' | 'git' },
  now: number,
): Promise<void> {
  await refreshTotals(tx, id);
  await tx.run(
    `UPDATE code_collections SET state = 'ready', indexed_at = ?, options = ?, mode = ?,
       last_error = NULL, updated_at = ? WHERE id = ?`,
    [update.indexedAt, JSON.stringify(update.options), update.mode, now, id],
  );
}

/**
 * The job did not finish: `ready` again (with the previous `indexed_at`) when a complete index
 * existed before, else `failed`; `message` becomes `last_error`. Totals say what is there now.
 */
export async function restoreCollection(
  tx: Queryable,
  id: number,
  message: string,
  now: number,
): Promise<void> {
  await refreshTotals(tx, id);
  await tx.run(
    `UPDATE code_collections
     SET state = CASE WHEN indexed_at IS NULL THEN 'failed' ELSE 'ready' END,
       last_error = ?, updated_at = ? WHERE id = ?`,
    [message, now, id],
  );
}
