// Code search (search_code): createCodeSearch and its vocabulary, the filter syntax, the
// default embedding text and the chunk embedding backlog. Other folders import from here
// (through src/code/index.ts), never from the files behind it.
export { type CodeSearch, createCodeSearch } from './code-search.js';
export {
  type ChunkEmbeddings,
  chunkEmbeddings,
  type CodeEmbedWorkerOptions,
  createCodeEmbedWorker,
  pendingChunkVectors,
} from './embed-backlog.js';
export { chunkVectorModel, DEFAULT_CODE_EMBED_TEXT } from './embed-text.js';
export { FILTER_KEYS, type ParsedFilters, parseFilters, WORK_TREE_BRANCH } from './filters.js';
export { type StatBudget, statFreshness } from './freshness.js';
export { RESOURCE_ONLY_CODE, searchCodeInput, toSearchInput } from './schemas.js';
export {
  CODE_SEARCH_DEFAULTS,
  type CodeEmbedder,
  type CodeEmbedText,
  type CodeSearchHit,
  type CodeSearchInput,
  type CodeSearchOptions,
  type CodeSearchResult,
  type CodeSearchStatus,
  type CollectionIndexState,
  type FreshnessCounts,
  type ScoreBasis,
} from './types.js';
