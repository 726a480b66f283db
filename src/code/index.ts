// The code-context domain: languages, syntax trees (and, as they land, walking, chunking,
// metrics, rules and git). Imports only the store and shared utilities.
export { CODE_LANGUAGES, type CodeLanguage, GRAMMAR_FILES, languageOf } from './languages.js';
export {
  grammar,
  loadedLanguages,
  parseSource,
  type SyntaxNode,
  type SyntaxTree,
} from './parser.js';
export {
  CHUNK_DEFAULTS,
  type ChunkedFile,
  chunkFile,
  type ChunkInput,
  type ChunkKind,
  type ChunkOptions,
  type CodeChunk,
  type FallbackReason,
} from './chunk/index.js';
