// Puts the CoSQA corpus into a real Cairn store the way the indexer will: each function is a
// Python file, chunked by `chunkFile`, its file and chunk rows written to the code-index tables
// (migration 20) in one collection; then the chunks are read back as the search sees them.
import { createHash } from 'node:crypto';

import { chunkFile } from '../../../src/code/index.js';
import type { Queryable, Store } from '../../../src/store/index.js';
import type { CosqaFunction } from './data.js';

export const COLLECTION = 'cosqa';

/** One stored chunk, with the fields the ranking reads. */
export interface ChunkRow {
  id: number;
  symbol: string | null;
  signature: string | null;
  text: string;
  path: string;
}

export interface StoredCorpus {
  collectionId: number;
  chunks: ChunkRow[];
  /** Chunk id → the corpus index of the function it came from. */
  functionOf: Map<number, number>;
  /** Functions chunked by syntax, and by the line-window fallback. */
  syntax: number;
  fallback: number;
  chunkMs: number;
}

/** A function's file path: the corpus has no paths, so the index stands in for one. */
export const pathOf = (index: number): string => `cosqa/f${index}.py`;
const indexOfPath = (path: string): number => Number(/f(\d+)\.py$/.exec(path)?.[1] ?? NaN);

async function insertCollection(tx: Queryable, now: number): Promise<number> {
  await tx.run(
    `INSERT INTO code_collections (name, root, mode, state, created_at, updated_at)
     VALUES (?, ?, 'filesystem', 'indexing', ?, ?)`,
    [COLLECTION, '/cosqa', now, now],
  );
  const row = await tx.get<{ id: number }>('SELECT id FROM code_collections WHERE name = ?', [
    COLLECTION,
  ]);
  if (row === undefined) throw new Error('collection insert returned nothing');
  return row.id;
}

type Chunked = Awaited<ReturnType<typeof chunkFile>>;

async function insertFile(
  tx: Queryable,
  collectionId: number,
  fn: CosqaFunction,
  chunked: Chunked,
  now: number,
): Promise<void> {
  const hash = createHash('sha256').update(fn.code).digest('hex');
  const lines = fn.code.split('\n').length;
  await tx.run(
    `INSERT INTO code_files (collection_id, path, language, size, mtime_ms, hash, lines, imports,
       fallback, indexed_at) VALUES (?, ?, 'python', ?, 0, ?, ?, ?, ?, ?)`,
    [
      collectionId,
      chunked.path,
      Buffer.byteLength(fn.code),
      hash,
      lines,
      JSON.stringify(chunked.imports),
      chunked.fallbackReason,
      now,
    ],
  );
  const file = await tx.get<{ id: number }>(
    'SELECT id FROM code_files WHERE collection_id = ? AND branch = ? AND path = ?',
    [collectionId, '', chunked.path],
  );
  if (file === undefined) throw new Error('file insert returned nothing');
  for (const [ordinal, c] of chunked.chunks.entries()) {
    await tx.run(
      `INSERT INTO code_chunks (file_id, collection_id, ordinal, kind, symbol, container,
         signature, start_line, end_line, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        file.id,
        collectionId,
        ordinal,
        c.kind,
        c.symbol,
        c.parent,
        c.signature,
        c.startLine,
        c.endLine,
        c.text,
      ],
    );
  }
}

/**
 * Chunks every function (language python) and writes collection, file and chunk rows in one
 * write transaction, then reads the chunks back from the store.
 */
export async function storeCorpus(
  store: Store,
  functions: readonly CosqaFunction[],
): Promise<StoredCorpus> {
  const started = performance.now();
  const chunked: Chunked[] = [];
  for (const fn of functions) {
    chunked.push(await chunkFile({ path: pathOf(fn.index), language: 'python', text: fn.code }));
  }
  const chunkMs = performance.now() - started;
  const now = Date.now();
  const collectionId = await store.write(async (tx) => {
    const id = await insertCollection(tx, now);
    for (const [i, fn] of functions.entries()) {
      await insertFile(tx, id, fn, chunked[i] as Chunked, now);
    }
    await tx.run(`UPDATE code_collections SET state = 'ready', indexed_at = ? WHERE id = ?`, [
      now,
      id,
    ]);
    return id;
  });
  const chunks = await store.all<ChunkRow>(
    `SELECT c.id, c.symbol, c.signature, c.text, f.path FROM code_chunks c
     JOIN code_files f ON f.id = c.file_id WHERE c.collection_id = ? ORDER BY c.id`,
    [collectionId],
  );
  const functionOf = new Map(chunks.map((c) => [c.id, indexOfPath(c.path)]));
  const syntax = chunked.filter((c) => c.mode === 'syntax').length;
  return {
    collectionId,
    chunks,
    functionOf,
    syntax,
    fallback: chunked.length - syntax,
    chunkMs,
  };
}
