// Which collections a search covers and what state their index is in: chunk counts, age, a
// live index job, the postings backlog, vectors of the current model, and files changed since
// (the freshness check). Portable SQL over the code-index tables; reads only.
import { InvalidInputError } from '../../shared/index.js';
import { inChunks, inList, type SqlValue, type Store } from '../../store/index.js';
import type { CollectionIndexState, FreshnessCounts } from './types.js';

export interface CollectionRow {
  id: number;
  name: string;
  state: CollectionIndexState['state'];
  indexed_at: number | null;
}

const MAX_NAMES_SHOWN = 20;

/**
 * The collection named `name`, or every collection (by name) when it is absent.
 * @throws InvalidInputError (field `collection`) for a malformed or unknown name, listing the
 * collections there are.
 */
export async function selectCollections(store: Store, name?: string): Promise<CollectionRow[]> {
  const all = await store.all<CollectionRow>(
    'SELECT id, name, state, indexed_at FROM code_collections ORDER BY name',
  );
  if (name === undefined) return all;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 256) {
    throw new InvalidInputError('must be a collection name (1–256 characters)', 'collection');
  }
  const found = all.filter((c) => c.name === name);
  if (found.length > 0) return found;
  const names = all.slice(0, MAX_NAMES_SHOWN).map((c) => c.name);
  const more = all.length > names.length ? `, … (${all.length} in all)` : '';
  const known = names.length === 0 ? 'none is indexed yet' : `known: ${names.join(', ')}${more}`;
  throw new InvalidInputError(
    `unknown collection ${JSON.stringify(name.slice(0, 100))} (${known})`,
    'collection',
  );
}

export interface StateOptions {
  /** The key the chunk vectors searched are stored under (chunkVectorModel), null without an embedder. */
  model: string | null;
  now: number;
  staleJobMs: number;
  maxListed: number;
  freshness: (collection: string) => Promise<FreshnessCounts>;
}

type Counts = Map<number, number>;

/** The listed collections, one IN list (`collection_id IN (?, …)`) and its values per chunk. */
function collectionLists(ids: readonly number[]): { sql: string; params: number[] }[] {
  return inChunks(ids).map((part) => ({
    sql: `collection_id IN ${inList(part.length)}`,
    params: part,
  }));
}

/** `{ id, n }` rows of `sql(inIds)` over every chunk of `ids`, as a map. */
async function countBy(
  store: Store,
  ids: readonly number[],
  sql: (inIds: string) => string,
  params: readonly SqlValue[] = [],
): Promise<Counts> {
  const out: Counts = new Map();
  for (const list of collectionLists(ids)) {
    const rows = await store.all<{ id: number; n: number }>(sql(list.sql), [
      ...list.params,
      ...params,
    ]);
    for (const r of rows) out.set(r.id, r.n);
  }
  return out;
}

type JobRow = { id: string; collection_id: number; phase: string; seen: number; total: number };

/** Live jobs per collection: queued or running, with a heartbeat newer than `staleJobMs`. */
async function liveJobs(
  store: Store,
  ids: readonly number[],
  o: StateOptions,
): Promise<Map<number, JobRow>> {
  const out = new Map<number, JobRow>();
  for (const list of collectionLists(ids)) {
    const rows = await store.all<JobRow>(
      `SELECT id, collection_id, phase, files_seen AS seen, files_total AS total FROM code_jobs
       WHERE state IN ('queued', 'running') AND ${list.sql}
         AND COALESCE(heartbeat_at, started_at, created_at) >= ?
       ORDER BY created_at`,
      [...list.params, o.now - o.staleJobMs],
    );
    for (const r of rows) out.set(r.collection_id, r);
  }
  return out;
}

/** The freshness of a collection worth checking, else null; a failed check is null too. */
async function freshnessOf(row: CollectionRow, chunks: number, o: StateOptions) {
  if (row.indexed_at === null || chunks === 0) return null;
  const f = await o.freshness(row.name).catch(() => null);
  return f === null || (f.checked === 0 && (f.total ?? 0) === 0) ? null : f;
}

export interface IndexStates {
  states: CollectionIndexState[];
  building: boolean;
  /** Over every searched collection, listed or not. */
  chunks: number;
  embedded: number;
}

const sum = (m: Counts): number => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * The index state of each collection (the first `maxListed` in full: freshness and postings
 * backlog), and whether any of them is still being built.
 */
export async function indexStates(
  store: Store,
  rows: readonly CollectionRow[],
  o: StateOptions,
): Promise<IndexStates> {
  const ids = rows.map((r) => r.id);
  const chunks = await countBy(
    store,
    ids,
    (inIds) =>
      `SELECT collection_id AS id, COUNT(*) AS n FROM code_chunks WHERE ${inIds} GROUP BY collection_id`,
  );
  const vectors =
    o.model === null
      ? new Map<number, number>()
      : await countBy(
          store,
          ids,
          (inIds) => `SELECT collection_id AS id, COUNT(*) AS n FROM code_vectors
           WHERE ${inIds} AND model = ? GROUP BY collection_id`,
          [o.model],
        );
  const jobs = await liveJobs(store, ids, o);
  const listed = rows.slice(0, o.maxListed);
  const states = await Promise.all(
    listed.map(async (row): Promise<CollectionIndexState> => {
      const n = chunks.get(row.id) ?? 0;
      const job = jobs.get(row.id);
      const pendingText = await store.codeIndex.pending([row.id]);
      const embedded = vectors.get(row.id) ?? 0;
      return {
        collection: row.name,
        state: row.state,
        chunks: n,
        indexedAt: row.indexed_at,
        ageMs: row.indexed_at === null ? null : Math.max(0, o.now - row.indexed_at),
        building: job !== undefined || pendingText > 0,
        job:
          job === undefined
            ? null
            : { id: job.id, phase: job.phase, filesSeen: job.seen, filesTotal: job.total },
        pendingText,
        vectors:
          o.model === null
            ? null
            : { model: o.model, embedded, pending: Math.max(0, n - embedded) },
        freshness: await freshnessOf(row, n, o),
      };
    }),
  );
  const rest = rows.slice(o.maxListed).map((r) => r.id);
  const building =
    states.some((s) => s.building) ||
    rows.slice(o.maxListed).some((r) => jobs.has(r.id)) ||
    (rest.length > 0 && (await store.codeIndex.pending(rest)) > 0);
  return { states, building, chunks: sum(chunks), embedded: sum(vectors) };
}
