// Named search operations over code chunks: BM25 over the code corpus's postings (exact, per
// collection), chunk vectors (code-vectors.ts), and how many chunks the postings do not hold
// yet, on either backend (id lists per dialect: json-lists.ts). Dialect-specific SQL lives here
// so the code domain never writes vec0 or postings SQL.
import { codeTokenizer, type RankedDoc, snippet } from '../search/index.js';
import { type CodeFilter, codeFilterSql, narrows } from './code-filter.js';
import { type CodeVectors, createCodeVectors } from './code-vectors.js';
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';
import type { VectorTables } from './vector-tables.js';

export interface CodeTextHit {
  chunkId: number;
  /** The raw BM25 relevance: unbounded, higher is better, comparable within one query. */
  bm25: number;
  /** bm25 / (1 + bm25): bounded [0, 1), higher is better. */
  score: number;
  /** The chunk's text around the best window of query terms, matches in «». */
  snippet: string;
}

export interface CodeIndex extends CodeVectors {
  /**
   * The `limit` best chunks of the filter's collections for `query` by BM25 (code tokenizer;
   * symbol and signature weighted above path and text), best first. Ranks what the postings
   * hold: see `pending`.
   */
  fullText(query: string, filter: CodeFilter, limit: number): Promise<CodeTextHit[]>;
  /**
   * Chunks of the collections the postings do not hold yet (changed outside a store write, or
   * before migration 21): 0 means a search sees every committed chunk as it is.
   */
  pending(collectionIds: readonly number[]): Promise<number>;
}

/** Ranks the corpus's postings: the best `k` and how many chunks matched any term. */
export type CodeRank = (
  terms: readonly string[],
  collectionIds: readonly number[],
  k: number,
) => Promise<{ hits: RankedDoc[]; matched: number }>;

/** A larger first pass when a filter narrows below whole collections. */
const NARROWED_DEPTH = 4;
const MIN_DEPTH = 64;

const validIds = (ids: readonly number[]): number[] =>
  [...new Set(ids)].filter((id) => Number.isSafeInteger(id));

/**
 * Builds the code index over a queryable connection; the chunk vectors live in `vectors`
 * (default: sqlite-vec on `db`).
 */
export function createCodeIndex(db: Queryable, rank: CodeRank, vectors?: VectorTables): CodeIndex {
  /** The ranked chunks that pass the filter, best first, with their text. */
  async function recheck(ranked: readonly RankedDoc[], filter: CodeFilter) {
    if (ranked.length === 0) return [];
    const where = codeFilterSql(filter);
    const rows = await db.all<{ id: number; text: string }>(
      `SELECT c.id, c.text FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       WHERE c.id IN ${jsonIds(db.dialect)} AND ${where.sql}`,
      [JSON.stringify(ranked.map((r) => r.rowid)), ...where.params],
    );
    const text = new Map(rows.map((r) => [r.id, r.text]));
    return ranked.flatMap((r) => {
      const t = text.get(r.rowid);
      return t === undefined ? [] : [{ ...r, text: t }];
    });
  }

  return {
    ...createCodeVectors(db, vectors),

    async fullText(query, filter, limit) {
      const terms = codeTokenizer.queryTerms(query);
      const ids = validIds(filter.collectionIds);
      const want = Math.trunc(limit);
      if (terms.length === 0 || ids.length === 0 || !(want >= 1)) return [];
      const scoped = { ...filter, collectionIds: ids };
      let k = narrows(filter) ? Math.max(want * NARROWED_DEPTH, MIN_DEPTH) : want;
      for (;;) {
        const { hits, matched } = await rank(terms, ids, k);
        const kept = await recheck(hits, scoped);
        if (kept.length >= want || matched <= k) {
          const marked = new Set(terms);
          return kept.slice(0, want).map((h) => ({
            chunkId: h.rowid,
            bm25: h.bm25,
            score: h.bm25 / (1 + h.bm25),
            snippet: snippet(h.text, marked, codeTokenizer),
          }));
        }
        k = Math.min(matched, k * 8);
      }
    },

    async pending(collectionIds) {
      const ids = validIds(collectionIds);
      if (ids.length === 0) return 0;
      const row = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM code_postings_dirty d JOIN code_chunks c ON c.id = d.chunk_id
         WHERE c.collection_id IN ${jsonIds(db.dialect)}`,
        [JSON.stringify(ids)],
      );
      return row?.n ?? 0;
    },
  };
}
