// The indexer's vocabulary: what start() takes (the index family's parameters, camel-cased),
// what a job and a collection report, and the options of createCodeIndex. Types only.
import type { Provenance } from '../../activity/index.js';
import type { IndexPlan, NothingToIndex, SkipReason } from '../walk/index.js';

/** `index_repo`'s parameters, camel-cased. Field names in errors are the spec's snake_case ones. */
export interface IndexParams {
  /** `start` (default) indexes the work tree; `git_index` what git tracks at `branches`. */
  action?: 'start' | 'git_index';
  /** The directory to index (required). */
  path: string;
  /** Default: the basename of the resolved path, reduced to `[A-Za-z0-9._-]`. */
  collection?: string;
  extensions?: readonly string[];
  excludeDirs?: readonly string[];
  ignorePatterns?: readonly string[];
  maxFileSize?: number;
  followSymlinks?: boolean;
  /** `git_index` only: refs to index (default: the current branch). */
  branches?: readonly string[];
  /** `git_index` only: write commit metadata (`code_commits`), `depth` commits per ref. */
  includeCommits?: boolean;
  /** With `includeCommits`: commits per ref, 1 to 1000 (default 50). */
  depth?: number;
  /** Answer what would be indexed (planIndex) and write nothing. */
  dryRun?: boolean;
  /** Keep the collection fresh with a file watcher in serving processes (work tree only). */
  watch?: boolean;
}

/** A job's life. `queued` is the instant between its row and its runner. */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** What a running job is doing. */
export type JobPhase =
  'queued' | 'walking' | 'chunking' | 'writing' | 'done' | 'failed' | 'cancelled';

/** A collection's state (migration 20). */
export type CollectionState = 'empty' | 'indexing' | 'ready' | 'failed';

/** One file the job could not index, and why. */
export interface JobError {
  path: string;
  message: string;
}

/** A job as its row says, every time epoch ms. */
export interface JobStatus {
  id: string;
  collection: string;
  action: 'start' | 'git_index';
  state: JobState;
  phase: JobPhase;
  files: {
    /** Files found to index (grows while walking). */
    total: number;
    /** Files compared or processed so far. */
    seen: number;
    /** Chunked and written (added or changed). */
    indexed: number;
    /** Same size and mtime, or same content. */
    unchanged: number;
    /** In the index, no longer on disk (or at the ref): deleted. */
    removed: number;
    /** Left out by the walk (and git content checks); by reason in `skippedByReason`. */
    skipped: number;
  };
  skippedByReason: Partial<Record<SkipReason, number>>;
  chunks: number;
  /** Lines of the files chunked by this job. */
  lines: number;
  /** The first errors (bounded); `errorCount` is exact. */
  errors: JobError[];
  errorCount: number;
  /** 0–100 once the total is known (null while walking); 100 only when done. */
  progress: number | null;
  rate: { linesPerSecond: number; filesPerSecond: number };
  /** Why the job failed or was cancelled, null otherwise. */
  message: string | null;
  /** Set when the walk matched no file: the job failed, loudly, for this reason. */
  nothingToIndex: NothingToIndex | null;
  createdAt: number;
  startedAt: number | null;
  heartbeatAt: number | null;
  finishedAt: number | null;
}

/** One collection: its index, its freshness stamp, and its running or latest job. */
export interface CollectionStatus {
  collection: string;
  root: string;
  mode: 'filesystem' | 'git';
  state: CollectionState;
  watch: boolean;
  /** Branches with files: '' is the work tree, else the ref name. */
  branches: string[];
  files: number;
  chunks: number;
  lines: number;
  bytes: number;
  /** When the index was last brought fully up to date (a job finished), null if never. */
  indexedAt: number | null;
  /** now − indexedAt, null if never indexed. */
  ageMs: number | null;
  lastError: string | null;
  repoId: string | null;
  projectId: string | null;
  /** The filters the current index was built with. */
  options: Record<string, unknown>;
  /** The job running now, if any. */
  running: JobStatus | null;
  /** The most recent job (running or finished), null if none. */
  lastJob: JobStatus | null;
}

/** `status()`: one entry per collection asked about (all when none was named). */
export interface IndexStatus {
  collections: CollectionStatus[];
}

/** What `git_index` with `dryRun` would cover at one ref (content is not read). */
export interface GitBranchPlan {
  ref: string;
  commit: string;
  files: number;
  bytes: number;
  languages: Record<string, number>;
  skipped: IndexPlan['skipped'];
}

/** The dry run of `git_index`. Lines are not counted (that reads every blob). */
export interface GitIndexPlan {
  root: string;
  mode: 'git';
  branches: GitBranchPlan[];
  files: number;
  bytes: number;
  estimate: { seconds: number; basis: string };
  nothingToIndex: NothingToIndex | null;
}

/** `start()`: a job (new, or the one already running) or, for a dry run, the plan. */
export type StartResult =
  | { kind: 'job'; job: JobStatus; alreadyRunning: boolean; message: string }
  | { kind: 'plan'; plan: IndexPlan | GitIndexPlan };

/** `clear()`: what was removed. */
export interface ClearResult {
  collection: string;
  files: number;
  chunks: number;
  /** The job that was running and got cancelled, if any. */
  cancelledJob: string | null;
}

/** `freshness()`: a cheap stat-only check of the work tree (or of the refs for git mode). */
export interface FreshnessReport {
  collection: string;
  indexedAt: number | null;
  ageMs: number | null;
  /** Indexed files checked (all of them unless `complete` is false). */
  checked: number;
  total: number;
  /** Files whose size or mtime differs now. */
  changed: number;
  /** Files gone from disk. */
  missing: number;
  /** Up to 10 changed or missing paths. */
  sample: string[];
  /** Git mode: refs that moved since they were indexed. */
  movedRefs: string[];
  /** False when the time or file budget ran out before every file was checked. */
  complete: boolean;
  /** New files are not detected by a stat-only check: re-index to find them. */
  note: string;
}

export interface WaitOptions {
  onProgress?: (status: JobStatus) => void;
  /** Aborting it rejects the wait with its reason (the job keeps running). */
  signal?: AbortSignal;
  /** Resolve with the current (unfinished) status after this long. */
  timeoutMs?: number;
}

/** Sizes of one write transaction: whichever is reached first ends the batch. */
export interface BatchLimits {
  files: number;
  chunks: number;
  /** Work (reading, chunking) collected for at most this long before it is written. */
  ms: number;
}

export interface CodeIndexOptions {
  /** Directories a `path` must lie in (default: home and the OS temp folder). */
  allowedRoots?: readonly string[];
  /** `worker` (default): a worker thread with its own connection; `inline`: this thread. A `:memory:` store always runs inline. */
  runner?: 'worker' | 'inline';
  clock?: () => number;
  /** How often a running job stamps its heartbeat (default 2,000 ms). */
  heartbeatMs?: number;
  /** A running job whose heartbeat is older than this is abandoned (default 30,000 ms). */
  staleMs?: number;
  /**
   * The machine this process runs on, recorded in the rows of the jobs it queues and runs: a
   * job's pid is only checked on its own machine (default: $CAIRN_HOST_ID, else the OS host
   * name).
   */
  hostId?: string;
  batch?: Partial<BatchLimits>;
  /** How long an idle worker thread is kept for the next job (default 30,000 ms). */
  workerIdleMs?: number;
  /** Called on every progress update of a job this instance started. */
  onProgress?: (status: JobStatus) => void;
  /** Quiet time after the last file event before a watched collection re-indexes (default 500 ms). */
  watchDebounceMs?: number;
  /** Errors of watchers and watch-triggered jobs (nothing else reports them). */
  onWatchError?: (collection: string, err: unknown) => void;
}

/** The code index of one store. */
export interface CodeIndex {
  start(params: IndexParams, provenance: Provenance): Promise<StartResult>;
  plan(params: IndexParams): Promise<IndexPlan | GitIndexPlan>;
  status(collection?: string): Promise<IndexStatus>;
  job(jobId: string): Promise<JobStatus>;
  wait(jobId: string, options?: WaitOptions): Promise<JobStatus>;
  cancel(jobId: string): Promise<JobStatus>;
  clear(collection: string): Promise<ClearResult>;
  freshness(collection: string): Promise<FreshnessReport>;
  watchCollection(collection: string): Promise<void>;
  unwatchCollection(collection: string): Promise<void>;
  /** Starts watchers for every collection whose `watch` flag is set (for `cairn serve`). */
  resumeWatches(): Promise<string[]>;
  /** Collections this instance watches now. */
  watching(): string[];
  /** Stops the watchers and cancels the jobs this instance runs; waits for their workers. */
  stop(): Promise<void>;
}
