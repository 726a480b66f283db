// Memory: facts, versioned procedures (later observations and document chunks), scrubbed on
// write, searched by full text, vector and hybrid, always within the caller's scope.
export { createEmbedWorker, type EmbedWorker, type EmbedWorkerOptions } from './embed-worker.js';
export { applyCutoff, DEFAULT_CUTOFF, type RelevanceCutoff } from './cutoff.js';
export { fuseRrf, fuseScores, type FusionMethod, type FusionOptions } from '../search/index.js';
export {
  contentHash,
  createMemory,
  type Memory,
  type MemoryOptions,
  type SaveInput,
  type SaveResult,
} from './memory.js';
export {
  type GotItem,
  MAX_CONTENT_BYTES,
  MEMORY_KINDS,
  type MemoryEmbedder,
  type MemoryItem,
  type MemoryKind,
  type MemoryScrubber,
  type Scope,
  SEARCH_MODES,
  type SearchHit,
  type SearchMode,
  type SearchResult,
} from './model.js';
export {
  memoryBrowseInput,
  memoryGetInput,
  memoryRemoveInput,
  memorySaveInput,
  memorySearchInput,
  memorySetTagsInput,
} from './schemas.js';
export { visibleTo } from './scope.js';
export type { SearchInput } from './search.js';
export {
  createScrubber,
  type ScrubFinding,
  type Scrubber,
  type ScrubberOptions,
  type ScrubResult,
} from './scrub.js';
