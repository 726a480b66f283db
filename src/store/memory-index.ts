// Named search operations over memory_items: FTS5 ranking, and the item vectors
// (memory-vectors.ts). Dialect-specific SQL lives here so the memory domain never writes MATCH.
import { queryTerms, type RankedDoc, snippet } from '../search/index.js';
import { toFtsQuery } from './fts-query.js';
import {
  createMemoryVectors,
  type MemoryVectors,
  recheckItems,
  type SqlFilter,
} from './memory-vectors.js';
import { createVecTableSql } from './migration-scope-key.js';
import { scopeKey, scopeMatch } from './scope-key.js';
import type { Queryable } from './types.js';
import { createSqliteVectorTables, MEMORY_VECTORS, type VectorTables } from './vector-tables.js';

export type { SqlFilter, VectorHit } from './memory-vectors.js';

export interface FtsHit {
  rowid: number;
  /** |bm25| / (1 + |bm25|): bounded [0, 1), higher is better. */
  score: number;
  /** The raw BM25 relevance |bm25|: unbounded, higher is better, comparable within one query. */
  bm25: number;
  snippet: string;
}

export interface MemoryIndex extends MemoryVectors {
  /**
   * BM25-ranked full-text search of user text (escaped here). Ranked on the impact-ordered
   * postings when the filter names its partitions, else (or with `engine: 'fts5'`) by FTS5.
   * A backend without FTS5 (PostgreSQL) always ranks on the postings: every partition when the
   * filter names none, and `engine` is ignored.
   */
  fullText(
    query: string,
    filter: SqlFilter,
    limit: number,
    options?: { engine?: 'fts5' },
  ): Promise<FtsHit[]>;
}

const FTS_COLUMNS = '{title content tags}';

/** Dialect-specific accelerators the backend may supply. */
export interface MemoryIndexOptions {
  /**
   * Top-`limit` BM25 over the impact-ordered postings of the given scope keys; null when the
   * postings lag the items (then FTS5 ranks instead).
   */
  rank?: (
    query: string,
    scopeKeys: readonly string[],
    limit: number,
  ) => Promise<RankedDoc[] | null>;
  /**
   * Top-`limit` BM25 over the postings of every partition, and how many items matched a term.
   * Given when the backend has no FTS5: then every search ranks on the postings.
   */
  rankAll?: (query: string, limit: number) => Promise<{ hits: RankedDoc[]; matched: number }>;
  /** Where the item vectors live; default sqlite-vec on `db`. */
  vectors?: VectorTables;
}

/** The first pass over every partition when the filter names none (deepened as needed). */
const MIN_ALL_DEPTH = 64;

/** Builds the memory index over a queryable connection (with sqlite-vec loaded, unless
 * `options.vectors` stores the vectors elsewhere). */
export function createMemoryIndex(db: Queryable, options: MemoryIndexOptions = {}): MemoryIndex {
  const recheck = <T extends { rowid: number }>(ranked: readonly T[], filter: SqlFilter) =>
    recheckItems(db, ranked, filter);

  type RankedRow = { rowid: number; rank: number; snippet: string };
  const RANKED = `bm25(memory_fts, 2.0, 1.0, 0.5, 0.0) AS rank,
    snippet(memory_fts, 1, '«', '»', '…', 24) AS snippet`;

  /** Ranks only the partitions' items (the scope clause prunes before BM25 scores a row). */
  async function rankedInPartitions(match: string, filter: SqlFilter, limit: number) {
    const partitions = filter.partitions ?? [];
    if (partitions.length === 0) return [];
    const rows = await db.all<RankedRow>(
      `SELECT rowid, ${RANKED} FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT ?`,
      [`${FTS_COLUMNS} : (${match}) AND ${scopeMatch(partitions)}`, limit],
    );
    return recheck(rows, filter);
  }

  /** Ranks with the postings (exact BM25, reading only the best postings), or null. */
  async function rankedByPostings(query: string, filter: SqlFilter, limit: number) {
    const partitions = filter.partitions;
    if (options.rank === undefined || partitions === undefined) return null;
    const ranked = await options.rank(query, partitions.map(scopeKey), limit);
    return ranked === null ? null : postingHits(query, ranked, filter);
  }

  /** Ranks every partition's postings, deeper until `limit` pass the filter or none is left. */
  async function rankedByAllPostings(
    rankAll: NonNullable<MemoryIndexOptions['rankAll']>,
    query: string,
    filter: SqlFilter,
    limit: number,
  ): Promise<FtsHit[]> {
    if (limit < 1) return [];
    let k = Math.max(limit * 2, MIN_ALL_DEPTH);
    for (;;) {
      const { hits, matched } = await rankAll(query, k);
      const kept = await postingHits(query, hits, filter);
      if (kept.length >= limit || matched <= k) return kept.slice(0, limit);
      k = Math.min(matched, k * 8);
    }
  }

  /** The ranked items that pass the filter, in order, with their snippets. */
  async function postingHits(
    query: string,
    ranked: readonly RankedDoc[],
    filter: SqlFilter,
  ): Promise<FtsHit[]> {
    if (ranked.length === 0) return [];
    const rows = await db.all<{ rowid: number; content: string }>(
      `SELECT m.rowid AS rowid, m.content AS content FROM memory_items m
       WHERE m.rowid IN (${ranked.map(() => '?').join(',')}) AND (${filter.sql})`,
      [...ranked.map((r) => r.rowid), ...filter.params],
    );
    const content = new Map(rows.map((r) => [r.rowid, r.content]));
    const terms = new Set(queryTerms(query));
    return ranked.flatMap((r): FtsHit[] => {
      const text = content.get(r.rowid);
      if (text === undefined) return [];
      return [
        {
          rowid: r.rowid,
          score: r.bm25 / (1 + r.bm25),
          bm25: r.bm25,
          snippet: snippet(text, terms),
        },
      ];
    });
  }

  /** Ranks every match and filters by joining the items (no partitions given). */
  function rankedByJoin(match: string, filter: SqlFilter, limit: number) {
    return db.all<RankedRow>(
      `SELECT m.rowid AS rowid, ${RANKED}
       FROM memory_fts JOIN memory_items m ON m.rowid = memory_fts.rowid
       WHERE memory_fts MATCH ? AND (${filter.sql})
       ORDER BY rank LIMIT ?`,
      [`${FTS_COLUMNS} : (${match})`, ...filter.params, limit],
    );
  }

  return {
    ...createMemoryVectors(
      db,
      options.vectors ??
        createSqliteVectorTables(db, MEMORY_VECTORS, (dims) => [createVecTableSql(dims)]),
    ),

    async fullText(query, filter, limit, how = {}) {
      if (options.rankAll !== undefined)
        return (
          (await rankedByPostings(query, filter, limit)) ??
          rankedByAllPostings(options.rankAll, query, filter, limit)
        );
      const fast = how.engine === 'fts5' ? null : await rankedByPostings(query, filter, limit);
      if (fast !== null) return fast;
      const match = toFtsQuery(query);
      if (match === null) return [];
      const rows =
        filter.partitions === undefined
          ? await rankedByJoin(match, filter, limit)
          : await rankedInPartitions(match, filter, limit);
      return rows.map((r) => ({
        rowid: r.rowid,
        score: Math.abs(r.rank) / (1 + Math.abs(r.rank)),
        bm25: Math.abs(r.rank),
        snippet: r.snippet,
      }));
    },
  };
}
