// Named search operations over memory_items: FTS5 ranking and sqlite-vec nearest neighbours.
// Dialect-specific SQL lives here so the memory domain never writes MATCH or vec0 itself.
import { queryTerms, type RankedDoc, snippet } from '../search/index.js';
import { toFtsQuery } from './fts-query.js';
import { createVecTableSql } from './migration-scope-key.js';
import { scopeKey, scopeMatch, type ScopePartition } from './scope-key.js';
import type { Queryable, SqlValue } from './types.js';

/** A portable WHERE fragment over `memory_items m` supplied by the domain (scope, kind…). */
export interface SqlFilter {
  sql: string;
  params: readonly SqlValue[];
  /**
   * The scopes `sql` admits, when it is a live fact/procedure visibility filter. The indexes
   * then rank only items of these scopes (`sql` is still applied to every row returned).
   */
  partitions?: readonly ScopePartition[];
}

export interface FtsHit {
  rowid: number;
  /** |bm25| / (1 + |bm25|): bounded [0, 1), higher is better. */
  score: number;
  /** The raw BM25 relevance |bm25|: unbounded, higher is better, comparable within one query. */
  bm25: number;
  snippet: string;
}

export interface VectorHit {
  rowid: number;
  /** Cosine distance (0 = same direction). */
  distance: number;
}

export interface MemoryIndex {
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
  /** Stores (or replaces) item vectors made by `model`, all of one dimension. */
  putVectors(
    tx: Queryable,
    model: string,
    rows: readonly { rowid: number; vector: Float32Array }[],
  ): Promise<void>;
  /** Nearest items embedded by `model` that pass `filter`, closest first. */
  nearest(
    model: string,
    vector: Float32Array,
    filter: SqlFilter,
    limit: number,
  ): Promise<VectorHit[]>;
  /**
   * Cosine distance from `vector` of each listed item's `model` vector, in no particular order;
   * items without one (not embedded yet, or by another model) are left out.
   */
  distances(model: string, vector: Float32Array, rowids: readonly number[]): Promise<VectorHit[]>;
}

const MAX_K = 4096;
const vecTable = (dims: number): string => `memory_vec_p${Math.trunc(dims)}`;
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
}

/** The first pass over every partition when the filter names none (deepened as needed). */
const MIN_ALL_DEPTH = 64;

/** Builds the memory index over a queryable connection that has sqlite-vec loaded. */
export function createMemoryIndex(db: Queryable, options: MemoryIndexOptions = {}): MemoryIndex {
  const known = new Set<number>();

  /** Creates the vec0 table for `dims` inside the caller's write transaction (not cached:
   * the transaction may still roll back). */
  async function ensureTable(tx: Queryable, dims: number): Promise<void> {
    if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
      throw new Error(`bad vector dims ${dims}`);
    await tx.run(createVecTableSql(dims));
  }

  async function tableExists(dims: number): Promise<boolean> {
    if (known.has(dims)) return true;
    const row = await db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
      [vecTable(dims)],
    );
    if ((row?.n ?? 0) > 0) known.add(dims);
    return known.has(dims);
  }

  /** Keeps the rows of `ranked` (best first) that pass `filter`, in order. */
  async function recheck<T extends { rowid: number }>(
    ranked: readonly T[],
    filter: SqlFilter,
  ): Promise<T[]> {
    if (ranked.length === 0) return [];
    const ok = await db.all<{ rowid: number }>(
      `SELECT m.rowid AS rowid FROM memory_items m
       WHERE m.rowid IN (${ranked.map(() => '?').join(',')}) AND (${filter.sql})`,
      [...ranked.map((r) => r.rowid), ...filter.params],
    );
    const pass = new Set(ok.map((r) => r.rowid));
    return ranked.filter((r) => pass.has(r.rowid));
  }

  /** `recheck`, also requiring the item's vector to come from `model`. */
  async function recheckModel(hits: readonly VectorHit[], model: string, filter: SqlFilter) {
    const fromModel: SqlFilter = {
      sql: `(${filter.sql}) AND EXISTS (SELECT 1 FROM memory_vectors mv
        WHERE mv.item_rowid = m.rowid AND mv.model = ?)`,
      params: [...filter.params, model],
    };
    return recheck(hits, fromModel);
  }

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

  /** One KNN pass of `k` per partition (or over all vectors), merged closest first. */
  async function knn(dims: number, blob: Uint8Array, k: number, filter: SqlFilter) {
    const table = vecTable(dims);
    const sql = `SELECT rowid, distance FROM ${table} WHERE embedding MATCH ? AND k = ?`;
    if (filter.partitions === undefined) return db.all<VectorHit>(sql, [blob, k]);
    const lists = await Promise.all(
      filter.partitions.map((p) =>
        db.all<VectorHit>(`${sql} AND scope_key = ?`, [blob, k, scopeKey(p)]),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => a.distance - b.distance)
      .slice(0, k);
  }

  return {
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

    async putVectors(tx, model, rows) {
      if (rows.length === 0) return;
      const dims = rows[0]?.vector.length ?? 0;
      await ensureTable(tx, dims);
      const table = vecTable(dims);
      for (const { rowid, vector } of rows) {
        if (vector.length !== dims) throw new Error('vectors in one batch must share a dimension');
        const old = await tx.get<{ dims: number }>(
          'SELECT dims FROM memory_vectors WHERE item_rowid = ?',
          [rowid],
        );
        if (old !== undefined)
          await tx.run(`DELETE FROM ${vecTable(old.dims)} WHERE rowid = ?`, [BigInt(rowid)]);
        const item = await tx.get<{ key: string }>(
          'SELECT scope_key AS key FROM memory_items WHERE rowid = ?',
          [rowid],
        );
        await tx.run(`INSERT INTO ${table}(rowid, embedding, scope_key) VALUES (?, ?, ?)`, [
          BigInt(rowid),
          new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength),
          item?.key ?? '',
        ]);
        await tx.run(
          'INSERT OR REPLACE INTO memory_vectors (item_rowid, model, dims, embedded_at) VALUES (?, ?, ?, ?)',
          [rowid, model, dims, Date.now()],
        );
      }
    },

    async nearest(model, vector, filter, limit) {
      if (!(await tableExists(vector.length))) return [];
      const blob = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
      let k = Math.min(MAX_K, Math.max(limit * 8, 64));
      for (;;) {
        const found = await knn(vector.length, blob, k, filter);
        const rows = (await recheckModel(found, model, filter)).slice(0, limit);
        if (rows.length >= limit || k >= MAX_K) return rows;
        const total = await db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM ${vecTable(vector.length)}`,
        );
        if ((total?.n ?? 0) <= k) return rows;
        k = Math.min(MAX_K, k * 4);
      }
    },

    async distances(model, vector, rowids) {
      if (rowids.length === 0 || !(await tableExists(vector.length))) return [];
      const blob = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
      // Joined by rowid so vec0 answers point lookups instead of scanning every vector.
      return db.all<VectorHit>(
        `SELECT mv.item_rowid AS rowid, vec_distance_cosine(v.embedding, ?) AS distance
         FROM memory_vectors mv JOIN ${vecTable(vector.length)} v ON v.rowid = mv.item_rowid
         WHERE mv.model = ? AND mv.dims = ? AND mv.item_rowid IN (${rowids.map(() => '?').join(',')})`,
        [blob, model, vector.length, ...rowids],
      );
    },
  };
}
