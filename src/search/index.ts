// The search module: tokenizers as plug-ins and the ranking settings of each corpus. Pure
// computation: no SQL, no driver types; the store and the domains import it, never the reverse.
export {
  codeTokenizer,
  createCodeTokenizer,
  type CodeTokenizerOptions,
  identifierParts,
} from './code-tokenizer.js';
export { CODE_QUERY_STOPWORDS, CODE_SYNONYMS } from './code-vocabulary.js';
export type { Token, Tokenizer } from './tokenizer.js';
