// Builds a code corpus for the search bench: walks a tree, chunks every file with chunkFile and
// writes collections, files and chunks the way the indexer does (batches of files per write).
// A fixture, not the indexer: no jobs, references or incremental logic.
import { readFile } from 'node:fs/promises';

import { chunkFile, walkRepository } from '../../src/code/index.js';
import type { Store } from '../../src/store/index.js';

export interface BuiltCorpus {
  collection: number;
  files: number;
  chunks: number;
  lines: number;
  symbols: string[];
}

const FILES_PER_WRITE = 50;

/** Indexes `root` into collection `name` of `store`. */
export async function buildCorpus(store: Store, name: string, root: string): Promise<BuiltCorpus> {
  const walk = await walkRepository({ path: root, allowedRoots: [root], git: 'never' });
  const collection = await store.write(async (tx) => {
    const row = await tx.get<{ id: number }>(
      `INSERT INTO code_collections(name, root, mode, state, created_at, updated_at, indexed_at)
       VALUES (?, ?, 'filesystem', 'ready', ?, ?, ?) RETURNING id`,
      [name, root, Date.now(), Date.now(), Date.now()],
    );
    return row?.id ?? 0;
  });
  const out: BuiltCorpus = { collection, files: 0, chunks: 0, lines: 0, symbols: [] };
  for (let i = 0; i < walk.files.length; i += FILES_PER_WRITE) {
    const part = walk.files.slice(i, i + FILES_PER_WRITE);
    const chunked = await Promise.all(
      part.map(async (f) => {
        const text = await readFile(f.absPath, 'utf8');
        return { f, text, file: await chunkFile({ path: f.path, language: f.language, text }) };
      }),
    );
    await store.write(async (tx) => {
      for (const { f, text, file } of chunked) {
        const lines = text.split('\n').length;
        const row = await tx.get<{ id: number }>(
          `INSERT INTO code_files(collection_id, branch, path, language, size, mtime_ms, hash, lines, indexed_at)
           VALUES (?, '', ?, ?, ?, ?, 'h', ?, ?) RETURNING id`,
          [collection, f.path, f.language, f.size, Math.trunc(f.mtimeMs), lines, Date.now()],
        );
        for (const [ordinal, c] of file.chunks.entries()) {
          await tx.run(
            `INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, symbol, container,
               signature, start_line, end_line, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              row?.id ?? 0,
              collection,
              ordinal,
              c.kind,
              c.symbol,
              c.parent,
              c.signature || null,
              c.startLine,
              c.endLine,
              c.text,
            ],
          );
          if (c.symbol !== null) out.symbols.push(c.symbol);
        }
        out.files += 1;
        out.chunks += file.chunks.length;
        out.lines += lines;
      }
    });
  }
  return out;
}
