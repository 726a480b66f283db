// The directory half of validate_code (scope project) and analyze_code: walks the directory
// with the repository walker (ignore rules, default excludes, binaries and lock files left
// out, only files in a language with a grammar), then reads and visits each file in walk
// order within the run's limits. Reads files; never writes.
import { readFile } from 'node:fs/promises';

import { DomainError, InvalidInputError } from '../../shared/index.js';
import { CODE_EXTENSIONS, type CodeLanguage } from '../languages.js';
import { allowedRootsOf, type WalkedFile, type WalkResult, walkRepository } from '../walk/index.js';
import type {
  FileCounts,
  InspectLimits,
  InspectSkip,
  InspectTarget,
  TruncatedBy,
} from './types.js';

/** Failed files listed by name (the count is exact). */
const FAILED_LISTED = 20;

/** A code file the walk found, and its text. */
export interface VisitedFile {
  readonly path: string;
  readonly language: CodeLanguage;
  readonly text: string;
}

/** What a directory run did: each visit's value in walk order, counts, and what was cut. */
export interface DirectoryRun<T> {
  values: { path: string; value: T }[];
  counts: FileCounts;
  truncatedBy: TruncatedBy[];
  /** The walk's message when it found nothing to read. */
  nothing?: string;
}

function failedFile(counts: FileCounts, path: string, reason: string): void {
  counts.failedCount++;
  if (counts.failed.length < FAILED_LISTED) counts.failed.push({ path, reason });
}

/** An error one file may cause without ending the run: its reason, or null to rethrow. */
function fileFailure(err: unknown): string | null {
  if (err instanceof InvalidInputError && err.field === 'text') return err.message;
  if (err instanceof DomainError && err.code === 'grammar_unavailable') return err.message;
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return `unreadable (${code})`;
  return null;
}

async function walk(
  root: string,
  target: InspectTarget,
  limits: InspectLimits,
): Promise<WalkResult | null> {
  try {
    return await walkRepository({
      path: root,
      allowedRoots: allowedRootsOf(target.allowedRoots),
      extensions: CODE_EXTENSIONS,
      maxFileSize: limits.maxFileBytes,
      maxFiles: limits.maxWalk,
      ...(target.signal === undefined ? {} : { signal: target.signal }),
    });
  } catch (err) {
    if (target.signal?.aborted === true) return null;
    throw err;
  }
}

/** Why to stop before the next file, or null to go on. */
function stopReason(
  target: InspectTarget,
  limits: InspectLimits,
  done: number,
  started: number,
): TruncatedBy | null {
  if (target.signal?.aborted === true) return 'cancelled';
  if (done >= limits.maxFiles) return 'files';
  if (done > 0 && Date.now() - started > limits.maxMs) return 'time';
  return null;
}

/** The code files of a walk, less those `skip` gives a reason for (counted in `counts`). */
function filesToRead(
  walked: WalkResult,
  counts: FileCounts,
  skip: ((path: string) => InspectSkip | null) | undefined,
): (WalkedFile & { language: CodeLanguage })[] {
  return walked.files.filter((f): f is WalkedFile & { language: CodeLanguage } => {
    if (f.language === null) return false;
    const reason = skip?.(f.path) ?? null;
    if (reason !== null) counts.skipped[reason] = (counts.skipped[reason] ?? 0) + 1;
    return reason === null;
  });
}

/**
 * Walks canonical directory `root` and calls `visit` on each code file, in walk order, until
 * `maxFiles`, `maxMs` or the signal stops it. Files `skip` names a reason for are counted
 * under `skipped` and never read. A file that cannot be read or parsed is counted under
 * `failed`; anything else `visit` throws ends the run.
 */
export async function visitDirectory<T>(
  root: string,
  target: InspectTarget,
  limits: InspectLimits,
  visit: (file: VisitedFile) => Promise<T>,
  skip?: (path: string) => InspectSkip | null,
): Promise<DirectoryRun<T>> {
  const started = Date.now();
  const counts: FileCounts = {
    read: 0,
    notRead: 0,
    failedCount: 0,
    failed: [],
    skippedByWalk: {},
    skipped: {},
  };
  const walked = await walk(root, target, limits);
  if (walked === null) return { values: [], counts, truncatedBy: ['cancelled'] };
  counts.skippedByWalk = walked.skippedByReason;
  const files = filesToRead(walked, counts, skip);
  const run: DirectoryRun<T> = {
    values: [],
    counts,
    truncatedBy: walked.truncated ? ['walk'] : [],
  };
  if (walked.nothingToIndex !== null) run.nothing = walked.nothingToIndex.message;
  for (const [i, file] of files.entries()) {
    const stop = stopReason(target, limits, i, started);
    if (stop !== null) {
      counts.notRead = files.length - i;
      run.truncatedBy.push(stop);
      break;
    }
    try {
      const text = await readFile(file.absPath, 'utf8');
      run.values.push({
        path: file.path,
        value: await visit({ path: file.path, language: file.language, text }),
      });
      counts.read++;
    } catch (err) {
      const reason = fileFailure(err);
      if (reason === null) throw err;
      failedFile(counts, file.path, reason);
    }
    target.onProgress?.(i + 1, files.length, file.path);
  }
  return run;
}
