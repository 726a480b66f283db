// The indexer end to end on real trees and a real SQLite file: a job runs in a worker thread,
// writes files, chunks and references with who asked, and reports honest counters.
import { afterEach, describe, expect, it } from 'vitest';

import {
  fixture,
  type Fixture,
  indexRows,
  PROVENANCE,
  SOURCES,
} from '../../../test/code/indexer-fixtures.js';
import { createCodeIndex } from './code-index.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

async function sampleTree(): Promise<Fixture> {
  fx = await fixture();
  for (const [path, text] of Object.entries(SOURCES)) fx.write(path, text);
  return fx;
}

describe('createCodeIndex: a first index', () => {
  it('indexes a small tree in a worker and records files, chunks, references and provenance', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store);
    const started = await index.start({ path: f.root }, PROVENANCE);
    if (started.kind !== 'job') throw new Error('expected a job');
    expect(started.alreadyRunning).toBe(false);
    expect(started.job.collection).toBe('repo');
    expect(['queued', 'running']).toContain(started.job.state);
    const done = await index.wait(started.job.id);
    expect(done.state, done.message ?? '').toBe('done');
    expect(done.files).toMatchObject({ total: 4, seen: 4, indexed: 4, unchanged: 0, removed: 0 });
    expect(done.progress).toBe(100);
    const rows = await indexRows(f.store, 'repo');
    const symbols = rows.map((r) => (r as { symbol: string | null }).symbol).filter(Boolean);
    expect(symbols).toEqual(
      expect.arrayContaining([
        'add',
        'Calculator',
        'Calculator.plus',
        'run',
        'report',
        'Reporter.show',
      ]),
    );
    const main = rows.filter((r) => (r as { path: string }).path === 'src/main.ts') as {
      symbol: string | null;
      refs: string[];
      imports: string;
    }[];
    expect(main.find((r) => r.symbol === 'run')?.refs).toEqual(
      expect.arrayContaining(['call:add', 'call:Calculator']),
    );
    expect(main.flatMap((r) => r.refs)).toContain('import:./math.js');
    expect(JSON.parse(main[0]?.imports ?? '')).toEqual(['./math.js']);
    const prov = await f.store.all<{ n: number; json: string }>(
      'SELECT COUNT(*) AS n, MAX(p.json) AS json FROM code_chunks k JOIN code_provenance p ON p.id = k.provenance_id',
    );
    expect(prov[0]?.n).toBe(rows.length);
    expect(JSON.parse(prov[0]?.json ?? '{}')).toMatchObject({
      session_id: 'test-session',
      model_id: 'test-model',
    });
    const status = await index.status('repo');
    expect(status.collections[0]).toMatchObject({
      state: 'ready',
      files: 4,
      chunks: rows.length,
      branches: [''],
    });
    expect(status.collections[0]?.indexedAt).toBe(done.startedAt);
    await index.stop();
  });
});
