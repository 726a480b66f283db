// Freshness (stat only: changed and missing files, the index's age) and the opt-in watcher that
// re-indexes a watched collection after a change (bounded waits, no timing thresholds).
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fixture, type Fixture, PROVENANCE, SOURCES } from '../../../test/code/indexer-fixtures.js';
import { createCodeIndex } from './code-index.js';
import type { CodeIndex, JobStatus } from './types.js';

let fx: Fixture | undefined;
let index: CodeIndex | undefined;
afterEach(async () => {
  await index?.stop();
  await fx?.cleanup();
  fx = undefined;
  index = undefined;
});

async function indexedTree(): Promise<{ f: Fixture; ix: CodeIndex; job: JobStatus }> {
  fx = await fixture();
  for (const [path, text] of Object.entries(SOURCES)) fx.write(path, text);
  index = createCodeIndex(fx.store, { runner: 'inline', watchDebounceMs: 50 });
  const started = await index.start({ path: fx.root }, PROVENANCE);
  if (started.kind !== 'job') throw new Error('expected a job');
  const job = await index.wait(started.job.id);
  expect(job.state).toBe('done');
  return { f: fx, ix: index, job };
}

/** Polls `check` until it returns a value, for at most `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('freshness', () => {
  it('counts files whose size or mtime changed and files that are gone', async () => {
    const { f, ix } = await indexedTree();
    const clean = await ix.freshness('repo');
    expect(clean).toMatchObject({ checked: 4, total: 4, changed: 0, missing: 0, complete: true });
    expect(clean.ageMs).toBeGreaterThanOrEqual(0);
    const later = new Date(Date.now() + 10_000);
    utimesSync(join(f.root, 'src/math.ts'), later, later);
    rmSync(join(f.root, 'README.md'));
    f.write('new.ts', 'export const n = 1;\n');
    const stale = await ix.freshness('repo');
    expect(stale).toMatchObject({ changed: 1, missing: 1, sample: ['README.md', 'src/math.ts'] });
    expect(stale.note).toMatch(/not detected/);
    await expect(ix.freshness('nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('watch', () => {
  it('re-indexes a watched collection after a file changes', async () => {
    const { f, ix, job } = await indexedTree();
    await ix.watchCollection('repo');
    expect(ix.watching()).toEqual(['repo']);
    expect((await ix.status('repo')).collections[0]?.watch).toBe(true);
    f.write(
      'src/math.ts',
      `${SOURCES['src/math.ts']}\nexport function third(): number {\n  return 3;\n}\n`,
    );
    const next = await eventually(async () => {
      const last = (await ix.status('repo')).collections[0]?.lastJob;
      return last !== undefined && last !== null && last.id !== job.id && last.state === 'done'
        ? last
        : undefined;
    });
    expect(next.files).toMatchObject({ indexed: 1, unchanged: 3 });
    const symbols = await f.store.all<{ symbol: string }>(
      "SELECT symbol FROM code_chunks WHERE symbol = 'third'",
    );
    expect(symbols).toHaveLength(1);
    await ix.unwatchCollection('repo');
    expect(ix.watching()).toEqual([]);
    expect((await ix.status('repo')).collections[0]?.watch).toBe(false);
  });

  it('resumes watching flagged collections (what cairn serve calls at start)', async () => {
    const { f, ix } = await indexedTree();
    await f.store.run("UPDATE code_collections SET watch = 1 WHERE name = 'repo'");
    const other = createCodeIndex(f.store, { runner: 'inline' });
    expect(await other.resumeWatches()).toEqual(['repo']);
    await other.stop();
    expect(other.watching()).toEqual([]);
    await expect(ix.watchCollection('nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('turns watching on with start({ watch: true }) and refuses it for git_index', async () => {
    const { f, ix } = await indexedTree();
    const again = await ix.start({ path: f.root, watch: true }, PROVENANCE);
    if (again.kind === 'job') await ix.wait(again.job.id);
    expect(ix.watching()).toEqual(['repo']);
    await expect(
      ix.start({ action: 'git_index', path: f.root, watch: true }, PROVENANCE),
    ).rejects.toMatchObject({
      field: 'watch',
    });
  });
});
