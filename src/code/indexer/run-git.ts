// The `git_index` job: what git tracks at each ref (ls-tree), compared with the index by blob id,
// then content hash; only new or changed blobs are read (git show, a few at a time) and chunked.
// Each ref is its own branch of the collection; `include_commits` adds its last `depth` commits.
import { chunkFile } from '../chunk/index.js';
import {
  classifyContent,
  createGitReader,
  type GitTreeFile,
  type GitTreeListing,
  listGitTree,
  SNIFF_BYTES,
} from '../walk/index.js';
import { commitTimeMs, readCommits, writeCommits } from './commits.js';
import { FileWriter } from './file-writer.js';
import type { JobSession } from './job-session.js';
import { NO_DELTA } from './progress.js';
import {
  lineCount,
  NothingToIndexError,
  type PriorFile,
  priorFiles,
  type RunnerContext,
  sha256,
} from './run-worktree.js';

/** Blobs read at once (each is one `git show`). */
const READ_AHEAD = 4;

type Read = { file: GitTreeFile; data: Buffer } | { file: GitTreeFile; error: unknown };

/** Reads `files` with up to READ_AHEAD reads in flight, yielding them in order. */
async function* readInOrder(
  files: readonly GitTreeFile[],
  read: (path: string) => Promise<Buffer>,
): AsyncGenerator<Read> {
  const inFlight: Promise<Read>[] = [];
  let next = 0;
  const launch = (): void => {
    while (inFlight.length < READ_AHEAD && next < files.length) {
      const file = files[next++] as GitTreeFile;
      inFlight.push(
        read(file.path).then(
          (data) => ({ file, data }),
          (error: unknown) => ({ file, error }),
        ),
      );
    }
  };
  launch();
  while (inFlight.length > 0) {
    const done = await (inFlight.shift() as Promise<Read>);
    launch();
    yield done;
  }
}

async function listAll(session: JobSession, ctx: RunnerContext): Promise<GitTreeListing[]> {
  const { params } = ctx;
  const { progress } = session;
  if (params.matchesEverything !== null) {
    throw new NothingToIndexError({
      reason: 'matches_everything',
      message: params.matchesEverything,
    });
  }
  const listings: GitTreeListing[] = [];
  for (const { ref, commit } of params.refs) {
    const listing = await listGitTree(params.root, commit, params.filters);
    listings.push({ ...listing, ref });
    for (const s of listing.skipped) progress.skip(s.reason);
    progress.total += listing.files.length;
    await session.saveSometimes();
  }
  if (progress.total === 0) {
    const reasons = Object.entries(progress.skippedByReason).map(([r, n]) => `${r}: ${n}`);
    const refs = params.refs.map((r) => r.ref).join(', ');
    throw new NothingToIndexError({
      reason: 'no_files',
      message: `no file to index at ${refs} (${reasons.length === 0 ? 'the tree is empty' : `skipped ${reasons.join(', ')}`})`,
    });
  }
  return listings;
}

/** Files whose blob id matches their row are unchanged; the rest must be read. */
function splitByBlob(
  session: JobSession,
  ctx: RunnerContext,
  listing: GitTreeListing,
  prior: Map<string, PriorFile>,
): GitTreeFile[] {
  const toRead: GitTreeFile[] = [];
  for (const file of listing.files) {
    const before = prior.get(file.path);
    if (!ctx.force && before !== undefined && before.object_id === file.objectId) {
      prior.delete(file.path);
      session.progress.seen += 1;
      session.progress.unchanged += 1;
    } else toRead.push(file);
  }
  return toRead;
}

/** Handles one blob read: skipped by content, unchanged by hash, or chunked and queued. */
async function processBlob(
  session: JobSession,
  ctx: RunnerContext,
  writer: FileWriter,
  at: { ref: string; mtimeMs: number; prior: Map<string, PriorFile> },
  read: Read,
): Promise<void> {
  const { progress } = session;
  const { file } = read;
  progress.seen += 1;
  if ('error' in read) {
    at.prior.delete(file.path); // unreadable now: its row stays
    return progress.error(`${at.ref}:${file.path}`, read.error);
  }
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const reason = classifyContent(read.data.subarray(0, SNIFF_BYTES), name);
  if (reason !== null) return progress.skip(reason); // a row it had stays in `prior`: removed
  const before = at.prior.get(file.path);
  at.prior.delete(file.path);
  const hash = sha256(read.data);
  const same = !ctx.force && before?.hash === hash;
  if (same) progress.unchanged += 1;
  const text = same ? '' : read.data.toString('utf8');
  await writer.add({
    branch: at.ref,
    path: file.path,
    language: file.language,
    size: read.data.length,
    mtimeMs: at.mtimeMs,
    hash,
    objectId: file.objectId,
    lines: same ? 0 : lineCount(text),
    chunked: same ? null : await chunkFile({ path: file.path, language: file.language, text }),
    priorId: before?.id ?? null,
  });
}

async function indexRef(
  session: JobSession,
  ctx: RunnerContext,
  listing: GitTreeListing,
  writer: FileWriter,
): Promise<void> {
  const { root } = ctx.params;
  const prior = await priorFiles(session.store, ctx.collectionId, listing.ref);
  const at = { ref: listing.ref, mtimeMs: await commitTimeMs(root, listing.commit), prior };
  const toRead = splitByBlob(session, ctx, listing, prior);
  await session.saveSometimes();
  for await (const read of readInOrder(toRead, createGitReader(root, listing.commit))) {
    session.signal.throwIfAborted();
    await processBlob(session, ctx, writer, at, read);
  }
  await writer.flush();
  await writer.remove([...prior.values()].map((p) => p.id));
}

/** Runs git_index over every ref; resolves with ref → the commit indexed. */
export async function runGitIndex(
  session: JobSession,
  ctx: RunnerContext,
): Promise<Record<string, string>> {
  const listings = await listAll(session, ctx);
  session.progress.phase = 'chunking';
  await session.save();
  const writer = new FileWriter(session, ctx.collectionId, ctx.provenanceId, ctx.batch);
  const refs: Record<string, string> = {};
  for (const listing of listings) {
    await indexRef(session, ctx, listing, writer);
    if (ctx.params.includeCommits) {
      const commits = await readCommits(ctx.params.root, listing.commit, ctx.params.depth);
      await session.write(async (tx) => {
        await writeCommits(tx, ctx.collectionId, listing.ref, commits);
        return NO_DELTA;
      });
    }
    refs[listing.ref] = listing.commit;
  }
  session.progress.phase = 'writing';
  return refs;
}
