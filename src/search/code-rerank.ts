// Second stage of code search: a deterministic linear reranker over the fused top candidates
// (CODE_RERANK.depth), from features of the query and each chunk: the fused score, the cosine,
// the fused position, the chunk's length and how much of the query its name and text hold.
// Pure computation over what the caller hands it; the weights are constants (code-ranking.ts).
import { CODE_RERANK, type CodeRerankWeights } from './code-ranking.js';
import { codeProse } from './code-text.js';
import { codeTokenizer } from './code-tokenizer.js';
import type { FusedEntry } from './fusion.js';

/** One fused candidate with the chunk fields the features read. */
export interface CodeRerankCandidate {
  id: number;
  /** The fusion's score (z-score fusion: the weighted z-score sum). */
  fused: number;
  /** Cosine similarity to the query; null when the chunk has no vector yet. */
  cosine: number | null;
  symbol: string | null;
  text: string;
  /** The file's language (picks the comment syntax of the prose); null reads both. */
  language: string | null;
}

export interface CodeReranked {
  id: number;
  /** Σ weight × feature (higher is better), on the fused score's scale plus the features'. */
  score: number;
}

const termsOf = (text: string): string[] => codeTokenizer.tokenize(text).map((t) => t.term);

/** Share of `wanted` found in `have` (0 when nothing is wanted). */
const coverage = (wanted: readonly string[], have: ReadonlySet<string>): number =>
  wanted.length === 0 ? 0 : wanted.filter((t) => have.has(t)).length / wanted.length;

/** Share of the query's adjacent term pairs that are adjacent in `terms`. */
function bigrams(query: readonly string[], terms: readonly string[]): number {
  if (query.length < 2) return 0;
  const pairs = new Set(terms.slice(1).map((t, i) => `${terms[i]} ${t}`));
  let hits = 0;
  for (let i = 1; i < query.length; i++) if (pairs.has(`${query[i - 1]} ${query[i]}`)) hits += 1;
  return hits / (query.length - 1);
}

/** (x − mean) / sd over `values`; all zeros when they do not vary. */
function zScores(values: readonly number[]): number[] {
  const n = Math.max(1, values.length);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return values.map((v) => (sd > 0 ? (v - mean) / sd : 0));
}

/** The name's parts as terms (a multi-part name's whole term left out: it is no query word). */
function nameParts(symbol: string | null): string[] {
  const tokens = codeTokenizer.tokenize(symbol ?? '');
  const wholes = new Set(tokens.filter((t, i) => tokens[i + 1]?.start === t.start).map((t) => t));
  return tokens.filter((t) => !wholes.has(t)).map((t) => t.term);
}

/**
 * The features of each candidate (in the order given, which is the fused order), keyed as
 * CODE_RERANK.weights: `fused` the fusion score; `cosine` the cosine z-scored over the
 * candidates (a chunk without a vector takes the lowest); `rank` 1 / fused position; `length`
 * ln(1 + the chunk's token count); `nameCoverage` the share of query terms in the name,
 * `namePrecision` the share of the name's parts in the query; `textCoverage` and
 * `proseCoverage` the share of query terms in the chunk and in its docstrings and comments;
 * `proseBigrams` the share of adjacent query term pairs adjacent in that prose.
 */
export function codeRerankFeatures(
  query: string,
  candidates: readonly CodeRerankCandidate[],
): Record<keyof CodeRerankWeights, number>[] {
  const q = codeTokenizer.queryTerms(query);
  const wanted = new Set(q);
  const known = candidates.flatMap((c) => (c.cosine === null ? [] : [c.cosine]));
  const floor = known.length === 0 ? 0 : Math.min(...known);
  const cosines = zScores(candidates.map((c) => c.cosine ?? floor));
  return candidates.map((c, i) => {
    const text = termsOf(c.text);
    const prose = termsOf(codeProse(c.text, c.language));
    const name = nameParts(c.symbol);
    return {
      fused: c.fused,
      cosine: cosines[i] ?? 0,
      rank: 1 / (i + 1),
      length: Math.log(1 + text.length),
      nameCoverage: coverage(q, new Set(termsOf(c.symbol ?? ''))),
      namePrecision: name.length === 0 ? 0 : name.filter((t) => wanted.has(t)).length / name.length,
      textCoverage: coverage(q, new Set(text)),
      proseCoverage: coverage(q, new Set(prose)),
      proseBigrams: bigrams(q, prose),
    };
  });
}

/** Σ weight × feature. */
export function rerankScore(
  features: Readonly<Record<keyof CodeRerankWeights, number>>,
  weights: Readonly<CodeRerankWeights> = CODE_RERANK.weights,
): number {
  let score = 0;
  for (const key of Object.keys(weights) as (keyof CodeRerankWeights)[]) {
    score += weights[key] * features[key];
  }
  return score;
}

/**
 * The candidates reordered by the reranker's score, best first (ties keep the fused order).
 * The caller passes the fused top CODE_RERANK.depth in fused order; the rest of its list
 * stays after them, unchanged.
 */
export function rerankCode(
  query: string,
  candidates: readonly CodeRerankCandidate[],
  weights: Readonly<CodeRerankWeights> = CODE_RERANK.weights,
): CodeReranked[] {
  const features = codeRerankFeatures(query, candidates);
  return candidates
    .map((c, i) => ({
      id: c.id,
      score: rerankScore(features[i] as Record<keyof CodeRerankWeights, number>, weights),
      at: i,
    }))
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .map(({ id, score }) => ({ id, score }));
}

/** A chunk's fields as the reranker reads them. */
export type CodeRerankChunk = Pick<CodeRerankCandidate, 'symbol' | 'text' | 'language'>;

/** A fused list after the reranker: its reordered top, then the rest in fused order. */
export interface RerankedFusion {
  top: (FusedEntry & { fused: number })[];
  rest: FusedEntry[];
}

/**
 * Reranks the top `depth` of a fused list (best first) with `rerankCode`: `chunk(id)` gives
 * each candidate's fields (a candidate without them, deleted since it was ranked, is left
 * out) and `cosine(id)` its cosine. `top` carries the reranker's score in `score` and the
 * fusion's in `fused`; `rest` is the list below `depth`, untouched.
 */
export function rerankFused(
  query: string,
  fused: readonly FusedEntry[],
  chunk: (id: number) => CodeRerankChunk | undefined,
  cosine: (id: number) => number | null,
  options: { depth?: number; weights?: Readonly<CodeRerankWeights> } = {},
): RerankedFusion {
  const depth = options.depth ?? CODE_RERANK.depth;
  const head = fused.slice(0, depth);
  const byId = new Map(head.map((e) => [e.rowid, e]));
  const candidates = head.flatMap((e) => {
    const c = chunk(e.rowid);
    return c === undefined ? [] : [{ ...c, id: e.rowid, fused: e.score, cosine: cosine(e.rowid) }];
  });
  const top = rerankCode(query, candidates, options.weights).map((r) => {
    const e = byId.get(r.id) as FusedEntry;
    return { rowid: r.id, score: r.score, fused: e.score, ranks: e.ranks };
  });
  return { top, rest: fused.slice(depth) };
}
