// How the code corpus ranks: chunk field weights, BM25 parameters, the fusion of full text
// with vectors and the reranker's weights. Measured on CoSQA (`npm run eval -- code`) on the
// tuning half only (the first 250 queries): a setting changed only when a grid's best point
// beat the current one by at least 0.01 MRR there (docs/code-context.md "Code search
// ranking"). Constants only: the store's code corpus, search_code and the eval read them.

/**
 * Field weights of a code chunk for BM25: a term's weighted frequency is Σ weight × count over
 * the fields, saturated once against the chunk's total token count (the memory postings'
 * model); a field of weight 0 is not indexed. `text` is the whole chunk (its signature and
 * docstring included), so a symbol term counts 5 + 0.5, a signature term 2 + 0.5, a docstring
 * or comment term 1 + 0.5 and a body term 0.5. `prose` is the chunk's docstrings and comments
 * (`codeProse`). `path` is a judgment (CoSQA has no paths).
 */
export const CODE_FIELD_WEIGHTS = {
  symbol: 5,
  signature: 2,
  prose: 1,
  text: 0.5,
  path: 1,
} as const satisfies Record<string, number>;

export type CodeFieldName = keyof typeof CODE_FIELD_WEIGHTS;

/** BM25 parameters for code chunks: FTS5's (a 12-point grid found nothing 0.01 better). */
export const CODE_BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * Fusion of the code full-text and vector lists (the memory fusion's options): z-scored raw
 * BM25 and cosine over the union of each channel's top `depth`, weighted 0.8 / 0.2. It beat the
 * best reciprocal-rank fusion by more than 0.01 MRR on the tuning half; the local embedder is a
 * much weaker ranker of code than BM25, so it must not weigh more.
 */
export const CODE_FUSION = {
  method: 'zscore',
  ftsWeight: 0.8,
  vectorWeight: 0.2,
  depth: 50,
} as const;

/**
 * The code reranker (code-rerank.ts): the fused top `depth` reordered by Σ weight × feature.
 * Fitted by `npm run eval -- code` (bench/eval/code/sweep-rerank.ts, which logs the fit) on
 * the tuning half of CoSQA only: pairwise logistic regression (the paired function against
 * every other candidate of its query), L2 strength and feature set chosen by two-fold
 * cross-validation inside the tuning half (three sets declared beforehand; the smallest won:
 * out-of-fold MRR 0.443 against 0.430 for the fused order). Weight 0: not in the chosen set.
 * Read as: trust the fused score, a little more the cosine and the top positions, and
 * prefer shorter chunks.
 */
export const CODE_RERANK = {
  depth: 50,
  weights: {
    fused: 2.334,
    cosine: 0.103,
    rank: 0.852,
    length: -0.775,
    nameCoverage: 0,
    namePrecision: 0,
    textCoverage: 0,
    proseCoverage: 0,
    proseBigrams: 0,
  },
} as const;

export type CodeRerankWeights = Record<keyof typeof CODE_RERANK.weights, number>;
