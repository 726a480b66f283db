// git_index on a repository built in the test: two branches indexed side by side (branch = the
// ref name, mtime = the commit time), commit metadata to a bounded depth, an incremental re-index
// by blob id after a new commit, and refs refused before git runs.
import { afterEach, describe, expect, it } from 'vitest';

import { fixture, type Fixture, PROVENANCE } from '../../../test/code/indexer-fixtures.js';
import { InvalidInputError, NotFoundError } from '../../shared/index.js';
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

/** main: two commits; feature: one more that changes a.ts and adds b.py; the work tree on main. */
async function repo(): Promise<Fixture> {
  fx = await fixture({ git: true });
  const f = fx;
  f.write('src/a.ts', 'export function a(): number {\n  return 1;\n}\n');
  f.write('README.md', '# r\n');
  f.git('add', '-A');
  f.git('commit', '-qm', 'first');
  f.write('src/c.ts', 'export const c = 3;\n');
  f.write('logo.png', '\u0000PNG binary');
  f.git('add', '-A');
  f.git('commit', '-qm', 'second');
  f.git('checkout', '-qb', 'feature');
  f.write('src/a.ts', 'export function a(): number {\n  return 2;\n}\n');
  f.write('src/b.py', 'def b():\n    return 2\n');
  f.git('add', '-A');
  f.git('commit', '-qm', 'feature work');
  f.git('checkout', '-q', 'main');
  f.write('src/uncommitted.ts', 'export const u = 0;\n');
  return f;
}

describe('git_index', () => {
  it('indexes two branches with their commits to a depth', async () => {
    const f = await repo();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const job = await indexed(index, {
      action: 'git_index',
      path: f.root,
      branches: ['main', 'feature'],
      includeCommits: true,
      depth: 2,
    });
    // logo.png is listed on both branches and left out once read (binary).
    expect(job.files).toMatchObject({ total: 9, seen: 9, indexed: 7, unchanged: 0 });
    expect(job.skippedByReason.binary).toBe(2);
    const files = await f.store.all<{
      branch: string;
      path: string;
      mtime_ms: number;
      object_id: string;
    }>('SELECT branch, path, mtime_ms, object_id FROM code_files ORDER BY branch, path');
    expect(files.map((r) => `${r.branch}:${r.path}`)).toEqual([
      'feature:README.md',
      'feature:src/a.ts',
      'feature:src/b.py',
      'feature:src/c.ts',
      'main:README.md',
      'main:src/a.ts',
      'main:src/c.ts',
    ]);
    const mainTime = Number(f.git('log', '-1', '--format=%ct', 'main').trim()) * 1000;
    expect(files.filter((r) => r.branch === 'main').every((r) => r.mtime_ms === mainTime)).toBe(
      true,
    );
    const commits = await f.store.all<{
      branch: string;
      subject: string;
      ordinal: number;
      parents: string;
    }>('SELECT branch, subject, ordinal, parents FROM code_commits ORDER BY branch, ordinal');
    expect(commits.map((c) => `${c.branch}:${c.ordinal}:${c.subject}`)).toEqual([
      'feature:0:feature work',
      'feature:1:second',
      'main:0:second',
      'main:1:first',
    ]);
    expect(JSON.parse(commits[3]?.parents ?? '')).toEqual([]);
    const status = await index.status(job.collection);
    expect(status.collections[0]).toMatchObject({
      mode: 'git',
      branches: ['feature', 'main'],
      state: 'ready',
    });
    expect(Object.keys(status.collections[0]?.options.refs as object).sort()).toEqual([
      'feature',
      'main',
    ]);
  });

  it('re-indexes a moved ref by blob id: only the changed blob is read and chunked', async () => {
    const f = await repo();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    await indexed(index, { action: 'git_index', path: f.root, branches: ['feature'] });
    f.git('checkout', '-q', 'feature');
    f.write('src/b.py', 'def b():\n    return 3\n');
    f.git('commit', '-qam', 'change b');
    f.git('checkout', '-q', 'main');
    const again = await indexed(index, {
      action: 'git_index',
      path: f.root,
      branches: ['feature'],
      includeCommits: true,
      depth: 10,
    });
    expect(again.files).toMatchObject({ total: 5, indexed: 1, unchanged: 3, removed: 0 });
    expect(again.skippedByReason.binary).toBe(1);
    const commits = await f.store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM code_commits WHERE branch = 'feature'",
    );
    expect(commits?.n).toBe(4);
    const fresh = await index.freshness(again.collection);
    expect(fresh.movedRefs).toEqual([]);
    f.git('branch', '-f', 'feature', 'main');
    expect((await index.freshness(again.collection)).movedRefs).toEqual(['feature']);
  });

  it('defaults to the current branch and refuses bad refs before git runs', async () => {
    const f = await repo();
    const index = createCodeIndex(f.store, { runner: 'inline' });
    const job = await indexed(index, { action: 'git_index', path: f.root });
    const branches = await f.store.all<{ branch: string }>(
      'SELECT DISTINCT branch FROM code_files',
    );
    expect(branches).toEqual([{ branch: 'main' }]);
    expect(job.files.total).toBe(4);
    for (const ref of ['--upload-pack=x', 'a;b', '../x', 'x@{1}']) {
      await expect(
        index.start({ action: 'git_index', path: f.root, branches: [ref] }, PROVENANCE),
      ).rejects.toMatchObject({
        field: 'branches',
      });
    }
    await expect(
      index.start({ action: 'git_index', path: f.root, branches: ['nope'] }, PROVENANCE),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      index.start({ action: 'git_index', path: f.root, depth: 3 }, PROVENANCE),
    ).rejects.toMatchObject({
      field: 'depth',
    });
    await expect(
      index.start(
        { action: 'git_index', path: f.root, includeCommits: true, depth: 5000 },
        PROVENANCE,
      ),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(
      index.start({ path: f.root, branches: ['main'] }, PROVENANCE),
    ).rejects.toMatchObject({
      field: 'branches',
    });
  });
});
