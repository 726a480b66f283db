// The search indexes on PostgreSQL, over the same postings engine as SQLite. Rankings read one
// snapshot at a time (snapshots then follow commit order, so the caches only move forward);
// memory has no FTS5 to fall back on, so a backlog is indexed before it ranks. Code and vault
// rank what is indexed and start the drain on a backlog, as on SQLite (they report `pending`).
import type { RankedDoc } from '../../search/index.js';
import { createGraphIndex, type GraphIndex } from '../graph-index.js';
import { createMemoryIndex, type MemoryIndex } from '../memory-index.js';
import type { PostingsCache } from '../postings-cache.js';
import type { PostingsEngine } from '../postings-engine.js';
import type { Queryable, Store } from '../types.js';
import type { VectorTables } from '../vector-tables.js';

/** Serialised read snapshots for the postings caches, and the store's backlog drain. */
export class PgSearchReads {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store: Store,
    readonly postings: PostingsEngine,
    readonly drain: () => Promise<void>,
  ) {}

  /** Runs `fn` on a read snapshot taken after every earlier one of these finished. */
  snapshot<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const run = (): Promise<T> => this.store.read(fn);
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * Memory's index on PostgreSQL: full text always on the postings (the filter's partitions, or
 * every partition when it names none), after indexing any backlog; vectors refuse for now.
 */
export function createPgMemoryIndex(
  store: Store,
  reads: PgSearchReads,
  vectors: VectorTables,
): MemoryIndex {
  const memory = reads.postings.memory;
  const caughtUp = async (): Promise<void> => {
    if (await reads.snapshot((tx) => memory.cache.hasBacklog(tx))) await reads.drain();
  };
  return createMemoryIndex(store, {
    vectors,
    async rank(query, scopeKeys, limit) {
      await caughtUp();
      return reads.snapshot((tx) => memory.rank(tx, query, scopeKeys, limit, { evenBehind: true }));
    },
    async rankAll(query, limit) {
      await caughtUp();
      return reads.snapshot((tx) => memory.rankAll(tx, query, limit));
    },
  });
}

/**
 * The knowledge graph on PostgreSQL: the same operations as SQLite, trigram candidates from the
 * graph corpus's postings; null while entities wait to be indexed (the caller scans, as on
 * SQLite) and the drain starts.
 */
export function createPgGraphIndex(reads: PgSearchReads): GraphIndex {
  const graph = reads.postings.graph;
  return createGraphIndex(async (terms, graphId) => {
    const ids = await reads.snapshot(async (tx) =>
      (await graph.hasBacklog(tx)) ? null : graph.matchAll(tx, terms, [graphId]),
    );
    if (ids === null) void reads.drain();
    return ids;
  });
}

/**
 * A code or vault corpus's ranking on PostgreSQL: BM25 over what the postings hold, on one
 * snapshot; a backlog starts the drain (the index's `pending` says what is not ranked yet).
 */
export function pgCorpusRank(
  reads: PgSearchReads,
  cache: PostingsCache,
): (
  terms: readonly string[],
  partitions: readonly number[],
  k: number,
) => Promise<{ hits: RankedDoc[]; matched: number }> {
  return async (terms, partitions, k) => {
    const { ranked, backlog } = await reads.snapshot(async (tx) => ({
      ranked: await cache.rank(tx, terms, partitions, k),
      backlog: await cache.hasBacklog(tx),
    }));
    if (backlog) void reads.drain();
    return ranked;
  };
}
