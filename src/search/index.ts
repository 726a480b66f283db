// The search substrate: pure ranking shared by every searchable corpus (memory, code, the
// vault next). Tokenizers as plug-ins, BM25 math and the packed impact lists, in-memory
// inverted lists and top-k, fusion of a full-text and a vector channel, snippets (FTS5-style
// word windows, and whole lines for code). Imports nothing but npm packages: no SQL, no
// driver, no domain. The store persists what it computes.
export {
  B,
  type Bm25Params,
  idf,
  IMPACT_SCALE,
  impactOf,
  K1,
  packTerms,
  unpackTerms,
  weightedTerms,
  type WeightedTerms,
} from './bm25.js';
export {
  codeTokenizer,
  createCodeTokenizer,
  type CodeTokenizerOptions,
  identifierParts,
} from './code-tokenizer.js';
export {
  CODE_BM25,
  CODE_FIELD_WEIGHTS,
  CODE_FUSION,
  CODE_RERANK,
  type CodeFieldName,
  type CodeRerankWeights,
} from './code-ranking.js';
export {
  type CodeRerankCandidate,
  type CodeRerankChunk,
  type CodeReranked,
  codeRerankFeatures,
  rerankCode,
  type RerankedFusion,
  rerankFused,
  rerankScore,
} from './code-rerank.js';
export {
  codeEmbeddingText,
  type EmbeddableChunk,
  codeProse,
  codeProseBlocks,
  codeVectorQuery,
  identifierWords,
  MAX_EMBED_CHARS,
} from './code-text.js';
export { CODE_LANGUAGE_WORDS, CODE_QUERY_STOPWORDS, CODE_SYNONYMS } from './code-vocabulary.js';
export {
  type ChannelScores,
  type FusedEntry,
  type FusionMethod,
  type FusionOptions,
  fuseRrf,
  fuseScores,
  fusionDepth,
  RRF_DEFAULTS,
  ZSCORE_WEIGHTS,
} from './fusion.js';
export { type FusedId, fuseLists, type RankedList } from './fuse-lists.js';
export { fuseHybrid, type HybridInput } from './hybrid.js';
export { type LineSnippet, lineSnippet, type LineSnippetOptions } from './line-snippet.js';
export { matchAll, PartitionIndex, rankPartitions, type WeightedTerm } from './partition-index.js';
export { fold, proseTokenizer, queryTerms, stem, tokenize } from './prose.js';
export { snippet } from './snippet.js';
export { STOPWORDS } from './stopwords.js';
export { termCounts, type Token, type Tokenizer } from './tokenizer.js';
export { type RankedDoc, TopK } from './top-k.js';
export { TRIGRAM, trigramSearchable, trigramTokenizer } from './trigram-tokenizer.js';
