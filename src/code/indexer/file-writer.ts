// Writes chunked files into a collection in bounded batches: each batch is one transaction that
// replaces whole files (the file row, its chunks, their references) and saves the job's counters,
// so a reader sees every file either as before or as now, never half of one.
import { inChunks, inList, type Queryable } from '../../store/index.js';
import type { ChunkedFile, CodeChunk } from '../chunk/index.js';
import type { JobSession } from './job-session.js';
import type { BatchDelta } from './progress.js';
import type { BatchLimits } from './types.js';

/** A file to write: chunked (new or changed content), or only re-stamped (same content). */
export interface PendingFile {
  branch: string;
  path: string;
  language: string | null;
  size: number;
  mtimeMs: number;
  hash: string;
  objectId: string | null;
  lines: number;
  /** null: the content is unchanged; only size, mtime and blob id are updated. */
  chunked: ChunkedFile | null;
  /** The row of the same path before this job, if any. */
  priorId: number | null;
}

/** References inserted per statement (4 parameters each). */
const REFS_PER_STATEMENT = 200;
/** Chunks inserted per statement (11 parameters each). */
const CHUNKS_PER_STATEMENT = 50;
/** File rows deleted per statement. */
const IDS_PER_STATEMENT = 200;

type Ref = [chunkId: number, name: string, kind: 'call' | 'reference' | 'import'];

/** The chunk an import belongs to: the first whose text names the specifier, else the first. */
function importOwner(chunks: readonly CodeChunk[], specifier: string): number {
  const at = chunks.findIndex((c) => c.text.includes(specifier));
  return at < 0 ? 0 : at;
}

async function insertRefs(tx: Queryable, collectionId: number, refs: Ref[]): Promise<void> {
  for (let i = 0; i < refs.length; i += REFS_PER_STATEMENT) {
    const part = refs.slice(i, i + REFS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO code_refs (chunk_id, collection_id, name, kind) VALUES ${part
        .map(() => '(?, ?, ?, ?)')
        .join(', ')} ON CONFLICT DO NOTHING`,
      part.flatMap(([chunkId, name, kind]) => [chunkId, collectionId, name, kind]),
    );
  }
}

async function upsertFile(
  tx: Queryable,
  collectionId: number,
  f: PendingFile,
  now: number,
): Promise<number> {
  const chunked = f.chunked;
  const row = await tx.get<{ id: number }>(
    `INSERT INTO code_files (collection_id, branch, path, language, size, mtime_ms, hash, lines,
       imports, fallback, indexed_at, object_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (collection_id, branch, path) DO UPDATE SET language = excluded.language,
       size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash,
       lines = excluded.lines, imports = excluded.imports, fallback = excluded.fallback,
       indexed_at = excluded.indexed_at, object_id = excluded.object_id
     RETURNING id`,
    [
      collectionId,
      f.branch,
      f.path,
      f.language,
      f.size,
      f.mtimeMs,
      f.hash,
      f.lines,
      JSON.stringify(chunked?.imports ?? []),
      chunked?.fallbackReason ?? null,
      now,
      f.objectId,
    ],
  );
  if (row === undefined) throw new Error(`code_files upsert of ${f.path} returned no row`);
  return row.id;
}

async function insertChunks(
  tx: Queryable,
  collectionId: number,
  fileId: number,
  chunks: readonly CodeChunk[],
  provenanceId: number,
): Promise<void> {
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_STATEMENT) {
    const part = chunks.slice(i, i + CHUNKS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO code_chunks (file_id, collection_id, ordinal, kind, symbol, container,
         signature, start_line, end_line, text, provenance_id)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      part.flatMap((c, j) => [
        fileId,
        collectionId,
        i + j,
        c.kind,
        c.symbol,
        c.parent,
        c.signature === '' ? null : c.signature,
        c.startLine,
        c.endLine,
        c.text,
        provenanceId,
      ]),
    );
  }
}

async function writeChunks(
  tx: Queryable,
  collectionId: number,
  fileId: number,
  chunked: ChunkedFile,
  provenanceId: number,
): Promise<void> {
  await tx.run('DELETE FROM code_chunks WHERE file_id = ?', [fileId]);
  await insertChunks(tx, collectionId, fileId, chunked.chunks, provenanceId);
  const rows = await tx.all<{ id: number; ordinal: number }>(
    'SELECT id, ordinal FROM code_chunks WHERE file_id = ?',
    [fileId],
  );
  const ids: number[] = [];
  for (const r of rows) ids[r.ordinal] = r.id;
  const refs: Ref[] = [];
  for (const [ordinal, c] of chunked.chunks.entries()) {
    const id = ids[ordinal];
    if (id === undefined) throw new Error(`chunk ${ordinal} of file ${fileId} was not stored`);
    for (const name of c.calls) refs.push([id, name, 'call']);
    for (const name of c.references) refs.push([id, name, 'reference']);
  }
  for (const specifier of chunked.imports) {
    const owner = ids[importOwner(chunked.chunks, specifier)];
    if (owner !== undefined) refs.push([owner, specifier, 'import']);
  }
  await insertRefs(tx, collectionId, refs);
}

/** Collects files and writes them in batches bounded by `limits`. */
export class FileWriter {
  readonly #session: JobSession;
  readonly #collectionId: number;
  readonly #provenanceId: number;
  readonly #limits: BatchLimits;
  #pending: PendingFile[] = [];
  #chunks = 0;
  #since = 0;

  constructor(
    session: JobSession,
    collectionId: number,
    provenanceId: number,
    limits: BatchLimits,
  ) {
    this.#session = session;
    this.#collectionId = collectionId;
    this.#provenanceId = provenanceId;
    this.#limits = limits;
  }

  /** Queues a file; writes the batch once it is full or old enough. */
  async add(file: PendingFile): Promise<void> {
    if (this.#pending.length === 0) this.#since = this.#session.now();
    this.#pending.push(file);
    this.#chunks += file.chunked?.chunks.length ?? 0;
    const full =
      this.#pending.length >= this.#limits.files ||
      this.#chunks >= this.#limits.chunks ||
      this.#session.now() - this.#since >= this.#limits.ms;
    if (full) await this.flush();
  }

  /** Writes what is queued (one transaction). */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#chunks = 0;
    const now = this.#session.now();
    await this.#session.write(async (tx) => {
      const delta: BatchDelta = { indexed: 0, removed: 0, chunks: 0, lines: 0 };
      for (const f of batch) {
        if (f.chunked === null && f.priorId !== null) {
          await tx.run(
            'UPDATE code_files SET size = ?, mtime_ms = ?, object_id = COALESCE(?, object_id) WHERE id = ?',
            [f.size, f.mtimeMs, f.objectId, f.priorId],
          );
          continue;
        }
        const fileId = await upsertFile(tx, this.#collectionId, f, now);
        if (f.chunked !== null) {
          await writeChunks(tx, this.#collectionId, fileId, f.chunked, this.#provenanceId);
          delta.chunks += f.chunked.chunks.length;
        }
        delta.indexed += 1;
        delta.lines += f.lines;
      }
      return delta;
    });
  }

  /** Deletes file rows (their chunks and references cascade), in bounded transactions. */
  async remove(ids: readonly number[]): Promise<void> {
    for (const part of inChunks(ids, IDS_PER_STATEMENT)) {
      await this.#session.write(async (tx) => {
        const r = await tx.run(
          `DELETE FROM code_files WHERE collection_id = ? AND id IN ${inList(part.length)}`,
          [this.#collectionId, ...part],
        );
        return { indexed: 0, removed: r.changes, chunks: 0, lines: 0 };
      });
    }
  }
}
