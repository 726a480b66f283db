// list_repos over a real store: collections with their indexed and git branches, index age,
// the stat-based work-tree freshness check (edits and deletions seen, bounded), the filters;
// and the choice of reference graph for analyze_impact.
import { mkdtempSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/index.js';
import { openSqliteStore, type Store } from '../../store/index.js';
import { referenceGraphFor } from './graph-choose.js';
import { indexAtRef } from './index-fixture.js';
import { listRepos } from './repos.js';
import { createTestRepo, type TestRepo } from './test-repo.js';
import { checkWorkTree } from './work-tree-freshness.js';

let repo: TestRepo;
let plain = '';
let dbDir = '';
let store: Store;
let workTreeId = 0;

interface CollectionExtra {
  mode?: string;
  repo_id?: string | null;
  project_id?: string | null;
  state?: string;
  indexed_at?: number | null;
}

async function addCollection(name: string, root: string, extra: CollectionExtra = {}) {
  const row = {
    mode: 'git',
    repo_id: null,
    project_id: null,
    state: 'ready',
    indexed_at: 1000,
    ...extra,
  };
  await store.run(
    `INSERT INTO code_collections (name, root, mode, repo_id, project_id, state, files, chunks,
       created_at, updated_at, indexed_at) VALUES (?, ?, ?, ?, ?, ?, 3, 7, 1, 1, ?)`,
    [name, root, row.mode, row.repo_id, row.project_id, row.state, row.indexed_at],
  );
  return (
    (await store.get<{ id: number }>('SELECT id FROM code_collections WHERE name = ?', [name]))
      ?.id ?? 0
  );
}

async function addFile(collection: number, branch: string, root: string, path: string) {
  const disk = statSync(join(root, path));
  await store.run(
    `INSERT INTO code_files (collection_id, branch, path, size, mtime_ms, hash, lines, indexed_at)
     VALUES (?, ?, ?, ?, ?, 'h', 1, 1)`,
    [collection, branch, path, disk.size, Math.trunc(disk.mtimeMs)],
  );
}

beforeAll(async () => {
  repo = createTestRepo('cairn-vcs-repos-');
  repo.write('a.ts', 'export const a = 1;\n');
  repo.write('b.ts', 'export const b = 2;\n');
  repo.write('c.py', 'C = 3\n');
  repo.commit('base');
  repo.git('checkout', '-qb', 'feature');
  plain = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-vcs-plain-')));
  writeFileSync(join(plain, 'x.md'), '# x\n');
  dbDir = mkdtempSync(join(tmpdir(), 'cairn-vcs-db-'));
  store = await openSqliteStore(join(dbDir, 'cairn.db'));
  workTreeId = await addCollection('app', repo.dir, { repo_id: 'r1', project_id: 'o/app' });
  for (const p of ['a.ts', 'b.ts', 'c.py']) await addFile(workTreeId, '', repo.dir, p);
  await addFile(workTreeId, 'main', repo.dir, 'a.ts');
  const docs = await addCollection('docs', plain, { mode: 'filesystem', indexed_at: 2000 });
  await addFile(docs, '', plain, 'x.md');
  await addCollection('never', join(plain, 'sub'), { state: 'empty', indexed_at: null });
  // Edit one file (new size and mtime) and delete another after indexing.
  repo.write('a.ts', 'export const a = 100;\n');
  utimesSync(join(repo.dir, 'a.ts'), new Date(5_000_000), new Date(5_000_000));
  repo.remove('b.ts');
});

afterAll(async () => {
  await store.close();
  for (const dir of [dbDir, plain]) rmSync(dir, { recursive: true, force: true });
  repo.cleanup();
});

describe('listRepos', () => {
  it('lists collections newest first with branches, state and freshness', async () => {
    const { repos, truncated } = await listRepos(store, { now: () => 10_000 });
    expect(truncated).toBe(false);
    expect(repos.map((r) => [r.collection, r.mode, r.state, r.indexedAt])).toEqual([
      ['docs', 'filesystem', 'ready', 2000],
      ['app', 'git', 'ready', 1000],
      ['never', 'git', 'empty', null],
    ]);
    const app = repos[1];
    expect(app).toMatchObject({
      root: repo.dir,
      repoId: 'r1',
      projectId: 'o/app',
      files: 3,
      chunks: 7,
    });
    expect(app?.branches).toEqual({
      indexed: ['', 'main'],
      git: ['feature', 'main'],
      current: 'feature',
      truncated: false,
    });
    expect(app?.freshness.indexAgeMs).toBe(9000);
    expect(app?.freshness.workTree).toEqual({
      total: 3,
      checked: 3,
      changed: 1,
      missing: 1,
      complete: true,
      sample: ['a.ts', 'b.ts'],
    });
    const docs = repos[0];
    expect(docs?.branches.git).toBeNull();
    expect(docs?.freshness.workTree).toMatchObject({
      total: 1,
      changed: 0,
      missing: 0,
      complete: true,
    });
    expect(repos[2]?.freshness).toEqual({ indexAgeMs: null, workTree: null });
  });

  it('filters by repo_id, repo_path and a branch query, and bounds the list', async () => {
    const byId = await listRepos(store, { repoId: 'r1' });
    expect(byId.repos.map((r) => r.collection)).toEqual(['app']);
    const byPath = await listRepos(store, { repoPath: plain });
    expect(byPath.repos.map((r) => r.collection)).toEqual(['docs', 'never']);
    const query = await listRepos(store, { repoId: 'r1', query: 'FEAT' });
    expect(query.repos[0]?.branches).toMatchObject({ indexed: [], git: ['feature'] });
    const one = await listRepos(store, { limit: 1 });
    expect(one).toMatchObject({ truncated: true });
    expect(one.repos).toHaveLength(1);
    await expect(listRepos(store, { limit: 0 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(listRepos(store, { limit: 501 })).rejects.toMatchObject({ field: 'limit' });
  });

  it('stops the freshness check at its row and time bounds, saying so', async () => {
    const rows = await checkWorkTree(store, workTreeId, repo.dir, { maxFiles: 2 });
    expect(rows).toMatchObject({ total: 3, checked: 2, complete: false });
    let t = 0;
    const time = await checkWorkTree(store, workTreeId, repo.dir, {
      budgetMs: 1,
      clock: () => (t += 1),
    });
    expect(time.checked).toBeLessThan(3);
    expect(time.complete).toBe(false);
  });
});

describe('referenceGraphFor', () => {
  it('uses a ready index of the repository holding the target branch, else the tree', async () => {
    const none = await referenceGraphFor(store, {
      repoPath: repo.dir,
      targetBranch: 'nothing-indexed',
    });
    // The work-tree rows of `app` qualify when no index holds the branch itself.
    expect(none.info()).toMatchObject({ source: 'index', collection: 'app', branch: '' });
    await indexAtRef(store, repo.dir, 'feature', {
      name: 'app-feature',
      branch: 'feature',
      indexedAt: 3000,
    });
    const feature = await referenceGraphFor(store, { repoPath: repo.dir, targetBranch: 'feature' });
    expect(feature.info()).toMatchObject({
      source: 'index',
      collection: 'app-feature',
      branch: 'feature',
    });
    const elsewhere = createTestRepo('cairn-vcs-other-');
    try {
      elsewhere.write('z.ts', 'export const z = 1;\n');
      elsewhere.commit('z');
      const tree = await referenceGraphFor(store, { repoPath: elsewhere.dir });
      expect(tree.info()).toMatchObject({ source: 'tree' });
      await expect(
        referenceGraphFor(store, { repoPath: elsewhere.dir, collection: 'never' }),
      ).rejects.toMatchObject({ field: 'collection' });
    } finally {
      elsewhere.cleanup();
    }
  });
});
