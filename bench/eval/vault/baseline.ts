// The baseline every vault mode is measured against in the same run: plain BM25 (k1 1.2,
// b 0.75, FTS5's idf) over whole session documents, prose tokenizer, query terms ORed. The
// eval's own, in memory; never the product's ranking.
import { B, idf, K1, proseTokenizer, termCounts } from '../../../src/search/index.js';

export interface Bm25Baseline {
  /** Document paths, best first. */
  rank(query: string, limit: number): string[];
}

export function createBm25Baseline(docs: readonly { path: string; text: string }[]): Bm25Baseline {
  const analysed = docs.map((d) => ({ path: d.path, ...termCounts(proseTokenizer, d.text) }));
  const avgdl = analysed.reduce((s, d) => s + d.length, 0) / Math.max(1, analysed.length);
  const df = new Map<string, number>();
  for (const d of analysed) for (const t of d.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return {
    rank: (query, limit) => {
      const terms = proseTokenizer.queryTerms(query);
      const scored = analysed.map((d) => {
        let score = 0;
        for (const t of terms) {
          const tf = d.counts.get(t) ?? 0;
          if (tf === 0) continue;
          const norm = tf + K1 * (1 - B + (B * d.length) / avgdl);
          score += idf(analysed.length, df.get(t) ?? 0) * ((tf * (K1 + 1)) / norm);
        }
        return { path: d.path, score };
      });
      return scored
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
        .slice(0, limit)
        .map((s) => s.path);
    },
  };
}
