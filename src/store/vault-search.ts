// Named search operations over vault fragments: BM25 over the vault corpus of the postings
// engine (per collection, exact), rechecked against the filter's per-document conditions, with
// a deeper first pass when a filter hides some of the ranked fragments.
import { proseTokenizer, type RankedDoc, snippet } from '../search/index.js';
import { jsonIds, jsonTexts } from './json-lists.js';
import type { Queryable } from './types.js';
import { documentConditions, filterCollections } from './vault-filter.js';
import type { VaultFilter, VaultTextHit } from './vault-types.js';

/** Ranks the vault corpus's postings: the best `k` and how many fragments matched any term. */
export type VaultRank = (
  terms: readonly string[],
  collectionIds: readonly number[],
  k: number,
) => Promise<{ hits: RankedDoc[]; matched: number }>;

const MIN_DEPTH = 64;

export interface VaultSearch {
  /**
   * The `limit` best fragments for `query` by BM25 (prose tokenizer, terms ORed; title and
   * heading path weighted above text), best first, each with its raw BM25. Only documents
   * the filter admits.
   */
  fullText(query: string, filter: VaultFilter, limit: number): Promise<VaultTextHit[]>;
  /**
   * Document frequencies of `terms` (already tokenized) over the whole vault corpus, and how
   * many fragments it holds: the statistics query expansion weighs feedback terms with. The
   * folded figures (a sync's last few deltas may not be in them yet).
   */
  termStats(terms: readonly string[]): Promise<{ df: Map<string, number>; fragments: number }>;
}

export function createVaultSearch(db: Queryable, rank: VaultRank): VaultSearch {
  async function recheck(ranked: readonly RankedDoc[], filter: VaultFilter) {
    if (ranked.length === 0) return [];
    const where = documentConditions(filter);
    const rows = await db.all<{ id: number; documentId: number; text: string }>(
      `SELECT f.id, f.document_id AS "documentId", f.text
       FROM vault_fragments f JOIN vault_documents d ON d.id = f.document_id
       WHERE f.id IN ${jsonIds(db.dialect)} AND ${where.sql}`,
      [JSON.stringify(ranked.map((r) => r.rowid)), ...where.params],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ranked.flatMap((r) => {
      const row = byId.get(r.rowid);
      return row === undefined ? [] : [{ ...r, ...row }];
    });
  }

  return {
    async termStats(terms) {
      const rows =
        terms.length === 0
          ? []
          : await db.all<{ term: string; df: number }>(
              `SELECT term, df FROM vault_terms WHERE term IN ${jsonTexts(db.dialect)}`,
              [JSON.stringify([...new Set(terms)])],
            );
      const stats = await db.get<{ docs: number }>(
        'SELECT docs FROM vault_postings_stats WHERE id = 1',
      );
      return { df: new Map(rows.map((r) => [r.term, r.df])), fragments: stats?.docs ?? 0 };
    },

    async fullText(query, filter, limit) {
      const terms = proseTokenizer.queryTerms(query);
      const want = Math.trunc(limit);
      if (terms.length === 0 || !(want >= 1)) return [];
      const collections = await filterCollections(db, filter);
      if (collections.length === 0) return [];
      let k = Math.max(want * 2, MIN_DEPTH);
      for (;;) {
        const { hits, matched } = await rank(terms, collections, k);
        const kept = await recheck(hits, filter);
        if (kept.length >= want || matched <= k) {
          const marked = new Set(terms);
          return kept.slice(0, want).map((h) => ({
            fragmentId: h.id,
            documentId: h.documentId,
            bm25: h.bm25,
            snippet: snippet(h.text, marked, proseTokenizer),
          }));
        }
        k = Math.min(matched, k * 8);
      }
    },
  };
}
