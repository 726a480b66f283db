// The vocabulary of validate_code and analyze_code over a path: what a run may read and show
// (limits), what it reports about the files it looked at, and the two reports. Types and
// defaults only; no file system access here.
import type { FileMetrics, FunctionMetrics } from '../metrics/index.js';
import {
  DEFAULT_MAX_DUPLICATE_TOKENS,
  type RuleFinding,
  type RuleOverride,
  type RuleSeverity,
  type RuleThresholds,
} from '../rules/index.js';
import type { SkipReason } from '../walk/index.js';

/** How much one run may read, and how much of what it found the answer shows. */
export interface InspectLimits {
  /** Files a directory run reads at most (default 2,000); the rest are counted, not read. */
  readonly maxFiles: number;
  /** Entries the walk lists at most (default 20,000); beyond, the walk is truncated. */
  readonly maxWalk: number;
  /** Wall-clock budget of a directory run in ms (default 20,000), checked between files. */
  readonly maxMs: number;
  /** Items (findings, files, functions) in the answer at most (default 200). */
  readonly maxShown: number;
  /** JSON bytes of those items at most (default 64 KiB). */
  readonly maxBytes: number;
  /** Largest single file read, in bytes (default 2 MiB). */
  readonly maxFileBytes: number;
  /** Tokens the cross-file duplicate scan keeps at most (default 5,000,000). */
  readonly maxDuplicateTokens: number;
}

export const DEFAULT_INSPECT_LIMITS: Readonly<InspectLimits> = Object.freeze({
  maxFiles: 2_000,
  maxWalk: 20_000,
  maxMs: 20_000,
  maxShown: 200,
  maxBytes: 64 * 1024,
  maxFileBytes: 2 * 1024 * 1024,
  maxDuplicateTokens: DEFAULT_MAX_DUPLICATE_TOKENS,
});

/** What a run is pointed at, and how it may report as it goes. */
export interface InspectTarget {
  /** A file or a directory; relative paths resolve against `cwd`. */
  readonly path: string;
  /** The folders `path` must lie in (the walker's check). */
  readonly allowedRoots: readonly string[];
  readonly cwd?: string;
  /** Stops a directory run between files; what was done so far is returned. */
  readonly signal?: AbortSignal;
  /** Called after each file of a directory run (`done` of `total` files to read). */
  readonly onProgress?: (done: number, total: number, path: string) => void;
  readonly limits?: Partial<InspectLimits>;
}

/** Why an answer leaves something out (`duplicates`: the cross-file scan's token budget). */
export type TruncatedBy = 'shown' | 'files' | 'time' | 'walk' | 'cancelled' | 'duplicates';

/** Why a file found by the walk was not checked, beyond the walk's own reasons. */
export type InspectSkip = 'rules.toml ignore';

/** A file that could not be checked, and why (grammar unavailable, too large, unreadable). */
export interface FailedFile {
  readonly path: string;
  readonly reason: string;
}

/** What a run did with the files it was pointed at. */
export interface FileCounts {
  /** Files read and checked. */
  read: number;
  /** Files found but not read (over `maxFiles`, out of time, or cancelled). */
  notRead: number;
  /** Files that failed (the first 20 are listed in `failed`). */
  failedCount: number;
  failed: FailedFile[];
  /** What the walk left out, by reason (a directory run); `extension` = not a code file. */
  skippedByWalk: Partial<Record<SkipReason, number>>;
  /** Files found and not checked, by reason (`rules.toml ignore`: the rules file's `ignore`). */
  skipped: Partial<Record<InspectSkip, number>>;
}

/** Exact totals over every file read, whatever the answer shows. */
export interface FindingCounts {
  findings: number;
  bySeverity: Record<RuleSeverity, number>;
  byRule: Record<string, number>;
  /** Files with at least one finding. */
  files: number;
}

/** Left out of an answer, and how to narrow the next call. */
export interface Truncation {
  truncated: boolean;
  truncatedBy: TruncatedBy[];
  /** Set when truncated: what was cut and which arguments narrow the run. */
  hint?: string;
}

/** validate_code's answer. */
export interface ValidateReport extends Truncation {
  scope: 'file' | 'project';
  /** `path` as given. */
  path: string;
  /** Its canonical absolute path; project findings are relative to it. */
  root: string;
  /**
   * The rules selected (by `rules` and `category`, less the rules file's `disabled`), before
   * filtering by language; for one file, with the overrides that match it.
   */
  rules: string[];
  /** The thresholds used: the project's (the file's, with its overrides, for one file). */
  thresholds: RuleThresholds;
  /** The `.cairn/rules.toml` obeyed (absolute), or null when there is none. */
  rulesFile: string | null;
  /** Its `[[overrides]]` (paths relative to the directory holding `.cairn/`). */
  overrides: RuleOverride[];
  files: FileCounts;
  counts: FindingCounts;
  /**
   * Sorted by path, line, column, rule; at most `maxShown` and `maxBytes`. A cross-file
   * duplicate (`duplicate-block`) also has `endLine`, `tokens` and `duplicateOf`.
   */
  findings: RuleFinding[];
  /** Set when a directory run found no file to check (the walk's own words). */
  nothing?: string;
}

/** One file of a directory analysis, without its functions. */
export interface FileSummary {
  path: string;
  language: FileMetrics['language'];
  lines: number;
  sloc: number;
  cyclomatic: number;
  cognitive: number;
  maxNesting: number;
  halsteadVolume: number;
  maintainability: number;
  functions: number;
  hasSyntaxErrors: boolean;
  truncated: boolean;
}

/** A function worth a look: where it is and how complex. */
export interface Hotspot extends Pick<
  FunctionMetrics,
  'name' | 'startLine' | 'endLine' | 'cyclomatic' | 'cognitive' | 'sloc' | 'maintainability'
> {
  path: string;
}

/** analyze_code's answer for one file: every metric, functions in source order. */
export interface FileAnalysis extends Truncation {
  kind: 'file';
  path: string;
  root: string;
  /** `functions` holds at most `maxShown` (and `maxBytes`); `functionCount` is all of them. */
  file: FileMetrics;
  functionCount: number;
}

/** analyze_code's answer for a directory: per-file summaries and the most complex functions. */
export interface DirectoryAnalysis extends Truncation {
  kind: 'directory';
  path: string;
  root: string;
  files: FileCounts;
  /** Over every file read. */
  totals: { files: number; lines: number; sloc: number; functions: number };
  /** Sorted by path; at most `maxShown` and `maxBytes`. */
  summaries: FileSummary[];
  /** The 10 functions with the highest cognitive (then cyclomatic) complexity. */
  hotspots: Hotspot[];
  nothing?: string;
}

export type AnalyzeReport = FileAnalysis | DirectoryAnalysis;
