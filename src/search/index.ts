// The search module: tokenizers as plug-ins and the ranking settings of each corpus. Pure
// computation: no SQL, no driver types; the store and the domains import it, never the reverse.
export {
  codeTokenizer,
  createCodeTokenizer,
  type CodeTokenizerOptions,
  identifierParts,
} from './code-tokenizer.js';
export { CODE_BM25, CODE_FIELD_WEIGHTS, CODE_FUSION, type CodeFieldName } from './code-ranking.js';
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
export type { Token, Tokenizer } from './tokenizer.js';
