// Incremental re-index: size and mtime first, then the content hash; only added and changed files
// are re-chunked, removed ones deleted, and the result equals a fresh full index of the same tree.
import { rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  fixture,
  type Fixture,
  indexRows,
  PROVENANCE,
  SOURCES,
} from '../../../test/code/indexer-fixtures.js';
import { createCodeIndex } from './code-index.js';
import type { CodeIndex, IndexParams, JobStatus } from './types.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

async function indexed(index: CodeIndex, params: IndexParams): Promise<JobStatus> {
  const started = await index.start(params, PROVENANCE);
  if (started.kind !== 'job') throw new Error('expected a job');
  const done = await index.wait(started.job.id);
  expect(done.state, done.message ?? '').toBe('done');
  return done;
}

async function chunkIds(f: Fixture, path: string): Promise<number[]> {
  const rows = await f.store.all<{ id: number }>(
    'SELECT k.id FROM code_chunks k JOIN code_files f ON f.id = k.file_id WHERE f.path = ? ORDER BY k.id',
    [path],
  );
  return rows.map((r) => r.id);
}

describe('incremental re-index', () => {
  it('touches only changed, added and removed files, and equals a fresh full index', async () => {
    fx = await fixture();
    const f = fx;
    for (const [path, text] of Object.entries(SOURCES)) f.write(path, text);
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const first = await indexed(index, { path: f.root, collection: 'inc' });
    expect(first.files).toMatchObject({ total: 4, indexed: 4, unchanged: 0, removed: 0 });

    const again = await indexed(index, { path: f.root, collection: 'inc' });
    expect(again.files).toMatchObject({ total: 4, seen: 4, indexed: 0, unchanged: 4, removed: 0 });
    expect(again.chunks).toBe(0);
    expect(again.lines).toBe(0);

    const untouched = await chunkIds(f, 'tools/report.py');
    f.write(
      'src/math.ts',
      `${SOURCES['src/math.ts']}\nexport const half = (n: number) => n / 2;\n`,
    );
    const later = new Date(Date.now() + 5000);
    utimesSync(join(f.root, 'README.md'), later, later); // same content, new mtime
    f.write('src/extra.go', 'package extra\n\nfunc Twice(n int) int {\n\treturn n * 2\n}\n');
    rmSync(join(f.root, 'src/main.ts'));
    const inc = await indexed(index, { path: f.root, collection: 'inc' });
    expect(inc.files).toMatchObject({ total: 4, seen: 4, indexed: 2, unchanged: 2, removed: 1 });
    expect(await chunkIds(f, 'tools/report.py')).toEqual(untouched);
    const readme = await f.store.get<{ mtime_ms: number }>(
      "SELECT mtime_ms FROM code_files WHERE path = 'README.md'",
    );
    expect(readme?.mtime_ms).toBe(Math.trunc(statSync(join(f.root, 'README.md')).mtimeMs));

    await indexed(index, { path: f.root, collection: 'full' });
    expect(await indexRows(f.store, 'inc')).toEqual(await indexRows(f.store, 'full'));
    const orphans = await f.store.get<{ n: number }>(
      `SELECT (SELECT COUNT(*) FROM code_chunks WHERE file_id NOT IN (SELECT id FROM code_files))
        + (SELECT COUNT(*) FROM code_refs WHERE chunk_id NOT IN (SELECT id FROM code_chunks)) AS n`,
    );
    expect(orphans?.n).toBe(0);
    const status = await index.status('inc');
    expect(status.collections[0]).toMatchObject({ files: 4, state: 'ready' });
  });

  it('follows a change of filters: newly excluded files are removed, newly included added', async () => {
    fx = await fixture();
    const f = fx;
    for (const [path, text] of Object.entries(SOURCES)) f.write(path, text);
    const index = createCodeIndex(f.store, { runner: 'inline' });
    await indexed(index, { path: f.root, collection: 'c' });
    const ts = await indexed(index, { path: f.root, collection: 'c', extensions: ['ts'] });
    expect(ts.files).toMatchObject({ total: 2, unchanged: 2, removed: 2 });
    expect(ts.skippedByReason.extension).toBe(2);
    const all = await indexed(index, { path: f.root, collection: 'c' });
    expect(all.files).toMatchObject({ total: 4, indexed: 2, unchanged: 2 });
    const status = await index.status('c');
    expect(status.collections[0]?.options).toEqual({});
  });
});
