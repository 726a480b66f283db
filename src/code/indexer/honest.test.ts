// Honest answers: a dry run writes nothing; an index that matches no file fails loudly with the
// walker's reason; a job that fails leaves the previous complete index in place (never a partial
// one claiming to be complete); bad input is refused naming the field before any job starts.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fixture, type Fixture, PROVENANCE, SOURCES } from '../../../test/code/indexer-fixtures.js';
import { createCodeIndex } from './code-index.js';
import type { CodeIndex, IndexParams, JobStatus } from './types.js';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

async function sampleTree(): Promise<Fixture> {
  fx = await fixture();
  for (const [path, text] of Object.entries(SOURCES)) fx.write(path, text);
  fx.write('node_modules/dep/index.js', 'module.exports = 1;\n');
  fx.write('package-lock.json', '{}\n');
  return fx;
}

async function run(index: CodeIndex, params: IndexParams): Promise<JobStatus> {
  const started = await index.start(params, PROVENANCE);
  if (started.kind !== 'job') throw new Error('expected a job');
  return index.wait(started.job.id);
}

async function tableCounts(f: Fixture): Promise<number[]> {
  const tables = ['code_collections', 'code_files', 'code_chunks', 'code_jobs', 'code_provenance'];
  return Promise.all(
    tables.map(
      async (t) => (await f.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`))?.n ?? -1,
    ),
  );
}

describe('dry run', () => {
  it('answers files, bytes, lines, languages, skip reasons with samples and an estimate; writes nothing', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const result = await index.start({ path: f.root, dryRun: true }, PROVENANCE);
    if (result.kind !== 'plan' || !('lines' in result.plan))
      throw new Error('expected a work-tree plan');
    expect(result.plan).toMatchObject({
      files: 4,
      languages: { typescript: 2, python: 1, text: 1 },
    });
    expect(result.plan.lines).toBeGreaterThan(20);
    expect(result.plan.skipped.byReason.default_dir).toEqual({
      count: 1,
      sample: ['node_modules'],
    });
    expect(result.plan.skipped.byReason.lock_file?.sample).toEqual(['package-lock.json']);
    expect(result.plan.estimate.basis).toMatch(/estimate/);
    expect(await tableCounts(f)).toEqual([0, 0, 0, 0, 0]);
  });

  it('plans git_index per ref without reading blobs', async () => {
    fx = await fixture({ git: true });
    const f = fx;
    f.write('a.ts', 'export const a = 1;\n');
    f.git('add', '-A');
    f.git('commit', '-qm', 'one');
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const plan = await index.plan({ action: 'git_index', path: f.root });
    expect(plan).toMatchObject({ mode: 'git', files: 1, nothingToIndex: null });
    expect('branches' in plan && plan.branches[0]?.ref).toBe('main');
    expect(await tableCounts(f)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('nothing to index', () => {
  it('fails loudly when the patterns match everything or no file is left', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const all = await run(index, { path: f.root, ignorePatterns: ['*'] });
    expect(all.state).toBe('failed');
    expect(all.nothingToIndex?.reason).toBe('matches_everything');
    expect(all.message).toMatch(/ignore_patterns "\*" match every file/);
    const none = await run(index, { path: f.root, extensions: ['zig'] });
    expect(none).toMatchObject({ state: 'failed', nothingToIndex: { reason: 'no_files' } });
    expect(none.message).toMatch(/no file to index .*extension: 4/);
    const status = await index.status('repo');
    expect(status.collections[0]).toMatchObject({ state: 'failed', indexedAt: null, files: 0 });
    expect(status.collections[0]?.lastError).toMatch(/no file to index/);
  });

  it('keeps the previous complete index when a re-index matches nothing', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const first = await run(index, { path: f.root });
    const failed = await run(index, { path: f.root, extensions: ['zig'] });
    expect(failed.state).toBe('failed');
    const c = (await index.status('repo')).collections[0];
    expect(c).toMatchObject({ state: 'ready', indexedAt: first.startedAt, files: 4 });
    expect(c?.lastError).toMatch(/no file to index/);
  });
});

describe('a job that fails part way', () => {
  it('never leaves a partial index claiming to be complete', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline', batch: { files: 1 } });
    await f.store
      .run(`CREATE TRIGGER refuse_main BEFORE INSERT ON code_files WHEN NEW.path = 'tools/report.py'
      BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
    const first = await run(index, { path: f.root });
    expect(first).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/disk says no/),
    });
    let c = (await index.status('repo')).collections[0];
    expect(c).toMatchObject({ state: 'failed', indexedAt: null });
    expect(c?.files).toBeGreaterThan(0); // what was written stays, but nothing claims it complete

    await f.store.run('DROP TRIGGER refuse_main');
    const ok = await run(index, { path: f.root });
    expect(ok.state).toBe('done');
    f.write('tools/report.py', `${SOURCES['tools/report.py']}\n# changed\n`);
    f.write('src/main.ts', `${SOURCES['src/main.ts']}// changed\n`);
    await f.store
      .run(`CREATE TRIGGER refuse_update BEFORE UPDATE ON code_files WHEN NEW.path = 'tools/report.py'
      BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
    const again = await run(index, { path: f.root });
    expect(again.state).toBe('failed');
    c = (await index.status('repo')).collections[0];
    expect(c).toMatchObject({ state: 'ready', indexedAt: ok.startedAt, files: 4 });
  });
});

describe('bad input', () => {
  it('refuses paths outside the allowed roots, missing, a file, a symlink loop, naming path', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline', allowedRoots: [f.root] });
    const refused = async (path: string, refusal: string): Promise<void> => {
      await expect(index.start({ path }, PROVENANCE)).rejects.toMatchObject({
        field: 'path',
        refusal,
      });
    };
    await refused('/etc', 'outside_allowed_roots');
    await refused(join(f.root, 'nope'), 'missing');
    await refused(join(f.root, 'README.md'), 'not_directory');
    symlinkSync(join(f.root, 'loop-b'), join(f.root, 'loop-a'));
    symlinkSync(join(f.root, 'loop-a'), join(f.root, 'loop-b'));
    await refused(join(f.root, 'loop-a'), 'missing');
    expect(await tableCounts(f)).toEqual([0, 0, 0, 0, 0]);
  });

  it('skips a symlink loop inside the tree with follow_symlinks and says so', async () => {
    const f = await sampleTree();
    mkdirSync(join(f.root, 'sub'));
    f.write('sub/x.ts', 'export const x = 1;\n');
    symlinkSync(join(f.root, 'sub'), join(f.root, 'sub', 'again'));
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const job = await run(index, { path: f.root, followSymlinks: true });
    expect(job.state).toBe('done');
    expect(job.skippedByReason.symlink_loop).toBe(1);
  });

  it('names the malformed field', async () => {
    const f = await sampleTree();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const cases: [Partial<IndexParams>, string][] = [
      [{ extensions: ['a/b'] }, 'extensions'],
      [{ excludeDirs: ['../up'] }, 'exclude_dirs'],
      [{ ignorePatterns: [''] }, 'ignore_patterns'],
      [{ maxFileSize: 0 }, 'max_file_size'],
      [{ collection: 'bad name!' }, 'collection'],
      [{ includeCommits: true }, 'include_commits'],
      [{ action: 'nope' as 'start' }, 'action'],
      [{ followSymlinks: 'yes' as unknown as boolean }, 'follow_symlinks'],
    ];
    for (const [params, field] of cases) {
      await expect(
        index.start({ path: f.root, ...params }, PROVENANCE),
        field,
      ).rejects.toMatchObject({ field });
    }
    f.write('My App/x.ts', 'export const x = 1;\n');
    expect((await run(index, { path: join(f.root, 'My App') })).collection).toBe('My-App');
    await run(index, { path: f.root, collection: 'taken' });
    await expect(
      index.start({ path: join(f.root, 'src'), collection: 'taken' }, PROVENANCE),
    ).rejects.toMatchObject({
      field: 'collection',
    });
  });
});
