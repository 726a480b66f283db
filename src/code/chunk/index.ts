// The chunking module's public face: chunkFile and its types. Other folders import from here
// (through src/code/index.ts), never from the files behind it.
export { chunkFile } from './chunk-file.js';
export {
  CHUNK_DEFAULTS,
  CHUNK_KINDS,
  type ChunkedFile,
  type ChunkInput,
  type ChunkKind,
  type ChunkOptions,
  type CodeChunk,
  type FallbackReason,
} from './types.js';
