// Writes code-index rows (collections, files, chunks) straight into a store, for tests of the
// code corpus and code search; the real indexer writes the same tables.
import type { Queryable } from '../src/store/index.js';

export interface ChunkRow {
  symbol?: string | null;
  signature?: string | null;
  text: string;
  /** Default `function`. */
  kind?: string;
  /** Default 1, and `endLine` then the last line of `text` counted from it. */
  startLine?: number;
  endLine?: number;
}

export interface CollectionRow {
  /** Default `/tmp/<name>`. */
  root?: string;
  state?: 'empty' | 'indexing' | 'ready' | 'failed';
  /** Epoch ms the index was last brought up to date (default null: never). */
  indexedAt?: number | null;
}

export interface FileRow {
  /** '' (the work tree, default) or a ref name. */
  branch?: string;
  language?: string | null;
  size?: number;
  mtimeMs?: number;
}

/** Inserts a collection and returns its id. */
export async function addCollection(
  tx: Queryable,
  name: string,
  row: CollectionRow = {},
): Promise<number> {
  const made = await tx.get<{ id: number }>(
    `INSERT INTO code_collections(name, root, mode, state, created_at, updated_at, indexed_at)
     VALUES (?, ?, 'filesystem', ?, 1, 1, ?) RETURNING id`,
    [name, row.root ?? `/tmp/${name}`, row.state ?? 'ready', row.indexedAt ?? null],
  );
  return made?.id ?? 0;
}

/** Inserts a file with its chunks; returns the file id and the chunk ids in order. */
export async function addFile(
  tx: Queryable,
  collection: number,
  path: string,
  chunks: readonly ChunkRow[],
  file: string | FileRow = '',
): Promise<{ file: number; chunks: number[] }> {
  const f: FileRow = typeof file === 'string' ? { branch: file } : file;
  const made = await tx.get<{ id: number }>(
    `INSERT INTO code_files(collection_id, branch, path, language, size, mtime_ms, hash, lines, indexed_at)
     VALUES (?, ?, ?, ?, ?, ?, 'h', 1, 1) RETURNING id`,
    [collection, f.branch ?? '', path, f.language ?? null, f.size ?? 1, f.mtimeMs ?? 1],
  );
  const fileId = made?.id ?? 0;
  const ids: number[] = [];
  for (const [ordinal, c] of chunks.entries()) {
    const start = c.startLine ?? 1;
    const end = c.endLine ?? start + c.text.split('\n').length - 1;
    const row = await tx.get<{ id: number }>(
      `INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, symbol, signature,
         start_line, end_line, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        fileId,
        collection,
        ordinal,
        c.kind ?? 'function',
        c.symbol ?? null,
        c.signature ?? null,
        start,
        end,
        c.text,
      ],
    );
    ids.push(row?.id ?? 0);
  }
  return { file: fileId, chunks: ids };
}
