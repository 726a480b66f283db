// How the code corpus ranks: which chunk fields count how much, the BM25 parameters and the
// fusion of full text with vectors. Measured on CoSQA (`npm run eval -- code`, tuned on the
// first 250 queries; docs/benchmarks.md and docs/code-context.md "Code search ranking").
// Constants only: the store's code corpus and the eval read them.

/**
 * Field weights of a code chunk for BM25: a term's weighted frequency is Σ weight × count over
 * the fields, saturated once against the chunk's total token count (the memory postings'
 * model). `text` is the whole chunk (its signature and docstring included); `prose` is its
 * docstrings and comments again (`codeProse`), so prose counts twice; `path` is untuned
 * (CoSQA has no paths).
 */
export const CODE_FIELD_WEIGHTS = {
  symbol: 3,
  signature: 1,
  prose: 1,
  text: 1,
  path: 1,
} as const satisfies Record<string, number>;

export type CodeFieldName = keyof typeof CODE_FIELD_WEIGHTS;

/** BM25 parameters for code chunks. */
export const CODE_BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * Fusion of the code full-text and vector lists (`fuseRrf` options): weighted reciprocal rank
 * with the vector list weighted `vectorWeight`, `depth` candidates from each list.
 */
export const CODE_FUSION = {
  method: 'rrf',
  k: 5,
  ftsWeight: 1,
  vectorWeight: 0.5,
  depth: 50,
} as const;
