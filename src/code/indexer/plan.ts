// The dry run of either action: planIndex for the work tree; for git_index, what ls-tree lists at
// each ref (files, bytes, languages, skipped with samples). Writes nothing, reads no blob.
import {
  ESTIMATE_LINES_PER_SECOND,
  type IndexPlan,
  listGitTree,
  PLAN_SAMPLE_SIZE,
  planIndex,
  type SkippedEntry,
} from '../walk/index.js';
import type { JobParams } from './params.js';
import type { GitBranchPlan, GitIndexPlan } from './types.js';

/** Bytes per line the git estimate assumes (lines are not counted without reading blobs). */
const ASSUMED_BYTES_PER_LINE = 40;

function skippedOf(entries: readonly SkippedEntry[]): IndexPlan['skipped'] {
  const byReason: IndexPlan['skipped']['byReason'] = {};
  for (const e of entries) {
    const bucket = (byReason[e.reason] ??= { count: 0, sample: [] });
    bucket.count += 1;
    if (bucket.sample.length < PLAN_SAMPLE_SIZE) bucket.sample.push(e.path);
  }
  return { total: entries.length, byReason };
}

async function planGit(params: JobParams): Promise<GitIndexPlan> {
  const branches: GitBranchPlan[] = [];
  for (const { ref, commit } of params.refs) {
    const listing = await listGitTree(params.root, commit, params.filters);
    const languages: Record<string, number> = {};
    for (const f of listing.files) {
      const key = f.language ?? 'text';
      languages[key] = (languages[key] ?? 0) + 1;
    }
    branches.push({
      ref,
      commit,
      files: listing.files.length,
      bytes: listing.files.reduce((n, f) => n + f.size, 0),
      languages,
      skipped: skippedOf(listing.skipped),
    });
  }
  const files = branches.reduce((n, b) => n + b.files, 0);
  const bytes = branches.reduce((n, b) => n + b.bytes, 0);
  const lines = bytes / ASSUMED_BYTES_PER_LINE;
  const nothing =
    params.matchesEverything !== null
      ? { reason: 'matches_everything' as const, message: params.matchesEverything }
      : files === 0
        ? {
            reason: 'no_files' as const,
            message: `no file to index at ${params.refs.map((r) => r.ref).join(', ')}`,
          }
        : null;
  return {
    root: params.root,
    mode: 'git',
    branches,
    files: nothing?.reason === 'matches_everything' ? 0 : files,
    bytes,
    estimate: {
      seconds: Math.round((lines / ESTIMATE_LINES_PER_SECOND) * 10) / 10,
      basis: `an estimate: ${bytes} bytes at an assumed ${ASSUMED_BYTES_PER_LINE} bytes a line and ${ESTIMATE_LINES_PER_SECOND} lines/s (no embeddings), blobs not read; not a measurement`,
    },
    nothingToIndex: nothing,
  };
}

/** What a job with `params` would index (checked parameters: see checkParams). */
export function planJob(params: JobParams): Promise<IndexPlan | GitIndexPlan> {
  if (params.action === 'git_index') return planGit(params);
  return planIndex({
    path: params.root,
    ...params.filters,
    ...(params.allowedRoots === null ? {} : { allowedRoots: params.allowedRoots }),
  });
}
