// Query-side attempts, applied in the eval before memory.search (measured; not adopted by the
// product because neither moved the numbers): normalising the question, and pseudo-relevance
// feedback (RM3-style: add the top terms of the first full-text hits, then search again).
import type { Memory, Scope } from '../../../src/memory/index.js';
import { queryTerms } from '../../../src/store/index.js';

export const QUERY_TRANSFORMS = ['none', 'normalise', 'prf'] as const;
export type QueryTransform = (typeof QUERY_TRANSFORMS)[number];

/** Clitic fragments and question filler the product's stopword list keeps. */
const FILLER = new Set(
  's t d ll re ve m likely kind type some any ever many much has doing think'.split(' '),
);

/** The question without filler words (full text drops stopwords itself). */
export function normaliseQuestion(question: string): string {
  return (question.match(/[\p{L}\p{N}_]+/gu) ?? [])
    .filter((w) => !FILLER.has(w.toLowerCase()))
    .join(' ');
}

export interface PrfOptions {
  /** Feedback documents: the top full-text hits. */
  docs: number;
  /** Expansion terms added to the query. */
  terms: number;
}

/** Document frequency of each term over one conversation's fact texts (for idf). */
export function documentFrequencies(texts: readonly string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const text of texts) {
    for (const term of new Set(queryTerms(text))) df.set(term, (df.get(term) ?? 0) + 1);
  }
  return df;
}

/**
 * RM3-style expansion: terms of the top `docs` full-text hits, scored by how many of those
 * hits hold them × idf over the conversation, minus the query's own terms.
 */
export async function expandQuery(
  memory: Memory,
  question: string,
  scope: Scope,
  df: ReadonlyMap<string, number>,
  corpusSize: number,
  options: PrfOptions,
): Promise<string> {
  const first = await memory.search({ query: question, mode: 'fts', limit: options.docs, scope });
  const own = new Set(queryTerms(question));
  const weight = new Map<string, number>();
  for (const hit of first.results) {
    const { item } = await memory.get(hit.id, scope);
    for (const term of new Set(queryTerms(`${item.title} ${item.content}`))) {
      if (own.has(term) || term.length < 3 || /^\d+$/.test(term)) continue;
      const idf = Math.log(corpusSize / (1 + (df.get(term) ?? 0)));
      weight.set(term, (weight.get(term) ?? 0) + idf);
    }
  }
  const extra = [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, options.terms)
    .map(([term]) => term);
  return [question, ...extra].join(' ');
}
