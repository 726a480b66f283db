// The `start` job: walk the work tree, compare every file with the index (size and mtime, then a
// content hash), chunk only what was added or changed, and delete what is gone. Each file is
// read once; unchanged files are not read at all.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import type { Queryable } from '../../store/index.js';
import { chunkFile } from '../chunk/index.js';
import { type NothingToIndex, type WalkedFile, walkRepository } from '../walk/index.js';
import { FileWriter } from './file-writer.js';
import type { JobSession } from './job-session.js';
import type { JobParams } from './params.js';
import type { BatchLimits } from './types.js';

/** The walk matched no file: the job fails loudly with the walker's reason. */
export class NothingToIndexError extends Error {
  readonly nothingToIndex: NothingToIndex;
  constructor(nothing: NothingToIndex) {
    super(nothing.message);
    this.name = 'NothingToIndexError';
    this.nothingToIndex = nothing;
  }
}

/** A file row as a job compares it. */
export interface PriorFile {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  hash: string;
  object_id: string | null;
}

/** The indexed files of one branch, by path. */
export async function priorFiles(
  q: Queryable,
  collectionId: number,
  branch: string,
): Promise<Map<string, PriorFile>> {
  const rows = await q.all<PriorFile>(
    'SELECT id, path, size, mtime_ms, hash, object_id FROM code_files WHERE collection_id = ? AND branch = ?',
    [collectionId, branch],
  );
  return new Map(rows.map((r) => [r.path, r]));
}

export const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Physical lines: newlines, plus one for a last line without one. */
export function lineCount(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

/** What a runner needs besides its session. */
export interface RunnerContext {
  collectionId: number;
  provenanceId: number;
  params: JobParams;
  batch: BatchLimits;
  /** Re-chunk every file (the index was built by another chunk format). */
  force: boolean;
}

async function walk(session: JobSession, params: JobParams) {
  const { progress } = session;
  const result = await walkRepository({
    path: params.root,
    ...params.filters,
    ...(params.allowedRoots === null ? {} : { allowedRoots: params.allowedRoots }),
    signal: session.signal,
    onFile: () => {
      progress.total += 1;
      void session.saveSometimes().catch(() => undefined);
    },
  });
  for (const [reason, n] of Object.entries(result.skippedByReason)) {
    progress.skip(reason as keyof typeof result.skippedByReason, n);
  }
  if (result.nothingToIndex !== null) throw new NothingToIndexError(result.nothingToIndex);
  progress.total = result.files.length;
  if (result.truncated) {
    progress.error('', new Error(`the walk stopped at ${result.files.length} files (max files)`));
  }
  return result;
}

/** Compares one walked file with its row and queues what changed. */
async function processFile(
  session: JobSession,
  ctx: RunnerContext,
  writer: FileWriter,
  file: WalkedFile,
  before: PriorFile | undefined,
): Promise<void> {
  const { progress } = session;
  const mtimeMs = Math.trunc(file.mtimeMs);
  progress.seen += 1;
  if (!ctx.force && before?.size === file.size && before.mtime_ms === mtimeMs) {
    progress.unchanged += 1;
    return session.saveSometimes();
  }
  let buffer: Buffer;
  try {
    buffer = await readFile(file.absPath);
  } catch (err) {
    return progress.error(file.path, err);
  }
  const hash = sha256(buffer);
  const same = !ctx.force && before?.hash === hash;
  if (same) progress.unchanged += 1;
  const text = same ? '' : buffer.toString('utf8');
  await writer.add({
    branch: '',
    path: file.path,
    language: file.language,
    size: buffer.length,
    mtimeMs,
    hash,
    objectId: null,
    lines: same ? 0 : lineCount(text),
    chunked: same ? null : await chunkFile({ path: file.path, language: file.language, text }),
    priorId: before?.id ?? null,
  });
}

/** Runs the work-tree index; resolves when every change is written. */
export async function runWorktree(session: JobSession, ctx: RunnerContext): Promise<void> {
  const walked = await walk(session, ctx.params);
  session.progress.phase = 'chunking';
  await session.save();
  const prior = await priorFiles(session.store, ctx.collectionId, '');
  const writer = new FileWriter(session, ctx.collectionId, ctx.provenanceId, ctx.batch);
  for (const file of walked.files) {
    session.signal.throwIfAborted();
    const before = prior.get(file.path);
    prior.delete(file.path); // a file that cannot be read now keeps its row
    await processFile(session, ctx, writer, file, before);
  }
  await writer.flush();
  session.progress.phase = 'writing';
  if (!walked.truncated) await writer.remove([...prior.values()].map((p) => p.id));
}
