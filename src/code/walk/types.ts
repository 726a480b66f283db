// The walker's vocabulary: options (the index family's parameters, camel-cased), the files it
// yields, and why it skipped what it skipped. Types only; no behaviour here.
import type { CodeLanguage } from '../languages.js';

/** Why a file or directory was left out. Stable strings: index_status counts them. */
export type SkipReason =
  | 'default_dir'
  | 'exclude_dirs'
  | 'ignore_patterns'
  | 'gitignore'
  | 'lock_file'
  | 'extension'
  | 'too_large'
  | 'binary'
  | 'minified'
  | 'symlink'
  | 'symlink_loop'
  | 'symlink_broken'
  | 'symlink_outside_allowed_roots'
  | 'duplicate'
  | 'submodule'
  | 'nested_repository'
  | 'empty_dir'
  | 'not_regular'
  | 'unreadable'
  | 'limit';

/** The index family's walking parameters (spec names in comments) plus walker settings. */
export interface WalkOptions {
  /** `path`: the directory to index; relative paths resolve against `cwd`. */
  path: string;
  /** `extensions`: only files ending with one of these (`ts`, `.ts` or `*.ts`); empty = all. */
  extensions?: readonly string[];
  /** `exclude_dirs`: directory names (any depth) or repo-relative paths; globs allowed. */
  excludeDirs?: readonly string[];
  /** `ignore_patterns`: gitignore-style globs, relative to the root. */
  ignorePatterns?: readonly string[];
  /** `max_file_size` in bytes (default 1 MiB). */
  maxFileSize?: number;
  /** `follow_symlinks` (default false). */
  followSymlinks?: boolean;
  /** Directories the path (and followed links) must lie in; default home and the OS temp dir. */
  allowedRoots?: readonly string[];
  /** `auto` (default): use git's listing inside a work tree; `never`: rules read from disk only. */
  git?: 'auto' | 'never';
  /** Skip dependency folders, build output and the like (default true; `.git` always). */
  defaultExcludes?: boolean;
  /** Stop after this many files (default 200,000); the result says it was truncated. */
  maxFiles?: number;
  /** Base for a relative `path` (default process.cwd()). */
  cwd?: string;
  /** Called for each file as it is found, in walk order (progress, streaming). */
  onFile?: (file: WalkedFile) => void;
  /** Called for each skipped entry as it is found. */
  onSkip?: (entry: SkippedEntry) => void;
  /** Stops the walk early; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A file to index. */
export interface WalkedFile {
  /** Repo-relative, posix separators (through a followed link: the link's path). */
  path: string;
  /** Where to read it from. */
  absPath: string;
  size: number;
  mtimeMs: number;
  /** The syntax language, or null for plain text (line-window chunks). */
  language: CodeLanguage | null;
}

/** An entry the walk left out, and why. A skipped directory is one entry, not its contents. */
export interface SkippedEntry {
  path: string;
  kind: 'file' | 'dir';
  reason: SkipReason;
  /** Extra words for a human (the pattern that matched, the size, the loop target). */
  detail?: string;
}

/** Why a walk produced nothing, said loudly (never a quiet success with zero files). */
export interface NothingToIndex {
  reason: 'matches_everything' | 'no_files';
  message: string;
}

/** What a walk found. */
export interface WalkResult {
  /** The canonical (realpath) root. */
  root: string;
  /** `git` when git's listing decided what exists unignored; `filesystem` otherwise. */
  mode: 'git' | 'filesystem';
  files: WalkedFile[];
  /** The first 10,000 skipped entries (counts below are exact). */
  skipped: SkippedEntry[];
  skippedByReason: Partial<Record<SkipReason, number>>;
  /** Non-null when no file is to be indexed: the caller must report it, not succeed. */
  nothingToIndex: NothingToIndex | null;
  /** True when `maxFiles` stopped the walk. */
  truncated: boolean;
}
