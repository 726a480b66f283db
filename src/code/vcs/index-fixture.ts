// Test-only: fills the migration-20 code-index tables the way the indexer does (one collection,
// files with their imports and hashes, chunks as chunkFile returns them, their calls and
// references as code_refs), from the files git tracks at a ref. Imported by *.test.ts only.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';

import type { Queryable, Store } from '../../store/index.js';
import { type ChunkedFile, chunkFile } from '../chunk/index.js';
import { languageOf } from '../languages.js';

function filesAt(repo: string, ref: string): Map<string, Buffer> {
  const list = execFileSync('git', ['ls-tree', '-r', '--name-only', '-z', ref], { cwd: repo });
  const files = new Map<string, Buffer>();
  for (const path of list.toString('utf8').split('\0')) {
    if (path === '') continue;
    files.set(path, execFileSync('git', ['show', `${ref}:${path}`], { cwd: repo }));
  }
  return files;
}

interface Prepared {
  path: string;
  bytes: Buffer;
  text: string;
  chunked: ChunkedFile;
}

async function insertFile(tx: Queryable, collection: number, branch: string, file: Prepared) {
  const { path, bytes, text, chunked } = file;
  const hash = createHash('sha256').update(bytes).digest('hex');
  await tx.run(
    `INSERT INTO code_files (collection_id, branch, path, language, size, mtime_ms, hash, lines,
       imports, fallback, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      collection,
      branch,
      path,
      chunked.language,
      bytes.length,
      0,
      hash,
      text.split('\n').length,
      JSON.stringify(chunked.imports),
      chunked.fallbackReason,
      1,
    ],
  );
  const row = await tx.get<{ id: number }>(
    'SELECT id FROM code_files WHERE collection_id = ? AND branch = ? AND path = ?',
    [collection, branch, path],
  );
  const fileId = row?.id ?? 0;
  for (const [ordinal, c] of chunked.chunks.entries()) {
    await tx.run(
      `INSERT INTO code_chunks (file_id, collection_id, ordinal, kind, symbol, container, signature,
         start_line, end_line, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        fileId,
        collection,
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
    const chunk = await tx.get<{ id: number }>(
      'SELECT id FROM code_chunks WHERE file_id = ? AND ordinal = ?',
      [fileId, ordinal],
    );
    const refs = [...c.calls.map((n) => [n, 'call']), ...c.references.map((n) => [n, 'reference'])];
    for (const [name, kind] of refs) {
      await tx.run(
        'INSERT INTO code_refs (chunk_id, collection_id, name, kind) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        [chunk?.id ?? 0, collection, name ?? '', kind ?? ''],
      );
    }
  }
}

/** Indexes what `ref` tracks into a new collection `name` (branch `branch`); returns its id. */
export async function indexAtRef(
  store: Store,
  repo: string,
  ref: string,
  options: { name: string; branch?: string; indexedAt?: number },
): Promise<number> {
  const files: Prepared[] = [];
  for (const [path, bytes] of filesAt(repo, ref)) {
    const text = bytes.toString('utf8');
    files.push({
      path,
      bytes,
      text,
      chunked: await chunkFile({ path, language: languageOf(path), text }),
    });
  }
  const branch = options.branch ?? '';
  return store.write(async (tx) => {
    await tx.run(
      `INSERT INTO code_collections (name, root, mode, state, files, created_at, updated_at, indexed_at)
       VALUES (?, ?, 'git', 'ready', ?, 1, 1, ?)`,
      [options.name, repo, files.length, options.indexedAt ?? 1],
    );
    const row = await tx.get<{ id: number }>('SELECT id FROM code_collections WHERE name = ?', [
      options.name,
    ]);
    const id = row?.id ?? 0;
    for (const file of files) await insertFile(tx, id, branch, file);
    return id;
  });
}
