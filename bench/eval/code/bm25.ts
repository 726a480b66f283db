// The code eval's own full-text ranking: an in-memory BM25 over chunk fields with the same
// model the store's postings use (Σ field weight × term count saturated once against the
// document's total token count, FTS5's idf). It stands in for `store.codeIndex.fullText` until
// that lands on this branch; it is the eval's, never the product's.
import type { CodeFieldName, Tokenizer } from '../../../src/search/index.js';

/** The fields of a code chunk the ranking reads (those of CODE_FIELD_WEIGHTS). */
export const CODE_FIELDS = ['symbol', 'signature', 'prose', 'text', 'path'] as const;
export type CodeField = CodeFieldName & (typeof CODE_FIELDS)[number];
export type FieldWeights = Readonly<Record<CodeField, number>>;

export interface Bm25Params {
  k1: number;
  b: number;
}

/** One chunk as the ranking sees it. */
export interface RankedDoc {
  id: number;
  fields: Readonly<Record<CodeField, string>>;
}

/** A document tokenized once: term counts and token count per field. */
interface Analysed {
  id: number;
  counts: Record<CodeField, Map<string, number>>;
  lengths: Record<CodeField, number>;
}

/** The documents tokenized once, so field weights and BM25 parameters can be swept cheaply. */
export interface AnalysedCorpus {
  docs: readonly Analysed[];
  tokenizer: Tokenizer;
}

export function analyseCorpus(docs: readonly RankedDoc[], tokenizer: Tokenizer): AnalysedCorpus {
  const analysed = docs.map((doc) => {
    const counts = {} as Record<CodeField, Map<string, number>>;
    const lengths = {} as Record<CodeField, number>;
    for (const field of CODE_FIELDS) {
      const tokens = tokenizer.tokenize(doc.fields[field]);
      const map = new Map<string, number>();
      for (const t of tokens) map.set(t.term, (map.get(t.term) ?? 0) + 1);
      counts[field] = map;
      lengths[field] = tokens.length;
    }
    return { id: doc.id, counts, lengths };
  });
  return { docs: analysed, tokenizer };
}

export interface Hit {
  id: number;
  score: number;
}

/** A built index: one ranking configuration over an analysed corpus. */
export interface MemoryCodeIndex {
  /** The best `limit` chunks for `query`, best first (ties by id). */
  search(query: string, limit: number): Hit[];
}

interface Posting {
  docs: number[];
  tfs: number[];
}

/** FTS5's IDF: ln((N − df + ½) / (df + ½)), floored at 1e-6. */
const idf = (n: number, df: number): number =>
  Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));

/**
 * Builds the postings for one set of field weights: a term's weighted frequency in a document
 * is Σ weight(field) × count(field); its length is every field's token count (fields weighted 0
 * are left out of both).
 */
export function buildIndex(
  corpus: AnalysedCorpus,
  weights: FieldWeights,
  params: Bm25Params,
): MemoryCodeIndex {
  const postings = new Map<string, Posting>();
  const lengths: number[] = [];
  corpus.docs.forEach((doc, i) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of CODE_FIELDS) {
      const w = weights[field];
      if (w === 0) continue;
      length += doc.lengths[field];
      for (const [term, c] of doc.counts[field]) tf.set(term, (tf.get(term) ?? 0) + w * c);
    }
    lengths.push(length);
    for (const [term, f] of tf) {
      const p = postings.get(term) ?? { docs: [], tfs: [] };
      p.docs.push(i);
      p.tfs.push(f);
      postings.set(term, p);
    }
  });
  const n = corpus.docs.length;
  const avgdl = Math.max(1, lengths.reduce((a, b) => a + b, 0) / Math.max(1, n));
  const norm = lengths.map((l) => params.k1 * (1 - params.b + (params.b * l) / avgdl));
  return {
    search(query, limit) {
      const scores = new Float64Array(n);
      for (const term of corpus.tokenizer.queryTerms(query)) {
        const p = postings.get(term);
        if (p === undefined) continue;
        const w = idf(n, p.docs.length);
        p.docs.forEach((d, j) => {
          const f = p.tfs[j] ?? 0;
          scores[d] = (scores[d] ?? 0) + (w * f * (params.k1 + 1)) / (f + (norm[d] ?? 1));
        });
      }
      const hits: Hit[] = [];
      scores.forEach((score, d) => {
        if (score > 0) hits.push({ id: corpus.docs[d]?.id ?? -1, score });
      });
      hits.sort((a, b) => b.score - a.score || a.id - b.id);
      return hits.slice(0, limit);
    },
  };
}
