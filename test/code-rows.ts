// Writes code-index rows (collections, files, chunks) straight into a store, for tests of the
// code corpus; the real indexer writes the same tables.
import type { Queryable } from '../src/store/index.js';

export interface ChunkRow {
  symbol?: string | null;
  signature?: string | null;
  text: string;
}

/** Inserts a collection and returns its id. */
export async function addCollection(tx: Queryable, name: string): Promise<number> {
  const row = await tx.get<{ id: number }>(
    `INSERT INTO code_collections(name, root, mode, created_at, updated_at)
     VALUES (?, ?, 'filesystem', 1, 1) RETURNING id`,
    [name, `/tmp/${name}`],
  );
  return row?.id ?? 0;
}

/** Inserts a file with its chunks; returns the file id and the chunk ids in order. */
export async function addFile(
  tx: Queryable,
  collection: number,
  path: string,
  chunks: readonly ChunkRow[],
  branch = '',
): Promise<{ file: number; chunks: number[] }> {
  const file = await tx.get<{ id: number }>(
    `INSERT INTO code_files(collection_id, branch, path, language, size, mtime_ms, hash, lines, indexed_at)
     VALUES (?, ?, ?, NULL, 1, 1, 'h', 1, 1) RETURNING id`,
    [collection, branch, path],
  );
  const fileId = file?.id ?? 0;
  const ids: number[] = [];
  for (const [ordinal, c] of chunks.entries()) {
    const row = await tx.get<{ id: number }>(
      `INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, symbol, signature,
         start_line, end_line, text)
       VALUES (?, ?, ?, 'function', ?, ?, 1, 1, ?) RETURNING id`,
      [fileId, collection, ordinal, c.symbol ?? null, c.signature ?? null, c.text],
    );
    ids.push(row?.id ?? 0);
  }
  return { file: fileId, chunks: ids };
}
