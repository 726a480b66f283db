// The walking module's public face: walker, dry-run plan, git_index listing and reader,
// content classification, and the errors they throw.
export { type WalkCheck, checkWalkOptions } from './check.js';
export { classifyContent, SNIFF_BYTES } from './classify.js';
export { type BlobBatch, type BlobLimits, readBlobs } from './git-blobs.js';
export {
  checkIgnored,
  GitCommandError,
  type GitOutput,
  isGitWorkTree,
  listWorkTree,
  runGit,
  runGitCapped,
  runGitRaw,
} from './git.js';
export {
  createGitReader,
  type GitTreeFile,
  type GitTreeListing,
  listGitTree,
  resolveRef,
  validateRef,
} from './git-tree.js';
export { ESTIMATE_LINES_PER_SECOND, type IndexPlan, PLAN_SAMPLE_SIZE, planIndex } from './plan.js';
export {
  type AllowedPath,
  allowedRootsOf,
  defaultAllowedRoots,
  isWithin,
  type PathRefusal,
  PathRefusedError,
  resolveAllowedPath,
  resolveWalkRoot,
} from './roots.js';
export { DEFAULT_EXCLUDED_DIRS, DEFAULT_MAX_FILE_SIZE, LOCK_FILES } from './rules.js';
export type {
  NothingToIndex,
  SkippedEntry,
  SkipReason,
  WalkedFile,
  WalkOptions,
  WalkResult,
} from './types.js';
export { DEFAULT_MAX_FILES, walkRepository } from './walker.js';
