// analyze_impact on a repository built in the test with a known call chain a → b → c (TS and
// Python, across files), an import-only user, a name-only match and a test: depth 1 and 2
// differ, both graph implementations agree, the index says when it is stale, the score adds up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../../store/index.js';
import { indexReferenceGraph } from './graph-index.js';
import { treeReferenceGraph } from './graph-tree.js';
import { analyzeImpact } from './impact.js';
import { indexAtRef } from './index-fixture.js';
import { createTestRepo, type TestRepo } from './test-repo.js';

let repo: TestRepo;
let store: Store;
let dbDir = '';

beforeAll(async () => {
  repo = createTestRepo('cairn-vcs-impact-');
  repo.write('src/c.ts', 'export function core(x: number): number {\n  return x + 1;\n}\n');
  repo.write(
    'src/b.ts',
    "import { core } from './c';\n\nexport function middle(x: number): number {\n  return core(x) * 2;\n}\n",
  );
  repo.write(
    'src/a.ts',
    "import { middle } from './b';\n\nexport function top(): number {\n  return middle(1);\n}\n",
  );
  repo.write('src/other.ts', "import { core } from './c';\n\nexport const VERSION = 1;\n");
  repo.write('src/unrelated.ts', 'export function lonely(): number {\n  return core(2);\n}\n');
  repo.write(
    'tests/c.test.ts',
    "import { core } from '../src/c';\n\nexport function testCore(): boolean {\n  return core(1) === 2;\n}\n",
  );
  repo.write('py/__init__.py', '');
  repo.write('py/c.py', 'def base_fn(x):\n    return x\n');
  repo.write('py/b.py', 'from .c import base_fn\n\n\ndef mid_fn(x):\n    return base_fn(x) + 1\n');
  repo.write('py/a.py', 'from .b import mid_fn\n\n\ndef top_fn():\n    return mid_fn(1)\n');
  repo.commit('base');
  repo.git('checkout', '-qb', 'feature');
  repo.write('src/c.ts', 'export function core(x: number): number {\n  return x + 2;\n}\n');
  repo.write('py/c.py', 'def base_fn(x, y=0):\n    return x + y\n');
  repo.commit('change core and base_fn');
  dbDir = mkdtempSync(join(tmpdir(), 'cairn-vcs-db-'));
  store = await openSqliteStore(join(dbDir, 'cairn.db'));
});

afterAll(async () => {
  await store.close();
  rmSync(dbDir, { recursive: true, force: true });
  repo.cleanup();
});

const impact = (extra: Record<string, unknown> = {}) =>
  analyzeImpact({ repoPath: repo.dir, baseBranch: 'main', targetBranch: 'feature', ...extra });

type Row = [string, string | null, number, string, boolean, string[]];
const rows = (
  deps: {
    path: string;
    symbol: string | null;
    depth: number;
    via: string;
    linked: boolean;
    uses: string[];
  }[],
): Row[] => deps.map((d) => [d.path, d.symbol, d.depth, d.via, d.linked, d.uses]);

const DEPTH_1: Row[] = [
  ['py/b.py', 'mid_fn', 1, 'call', true, ['base_fn']],
  ['src/b.ts', 'middle', 1, 'call', true, ['core']],
  ['src/other.ts', null, 1, 'import', true, ['core']],
  ['src/unrelated.ts', 'lonely', 1, 'call', false, ['core']],
  ['tests/c.test.ts', 'testCore', 1, 'call', true, ['core']],
];
const DEPTH_2: Row[] = [
  ...DEPTH_1,
  ['py/a.py', 'top_fn', 2, 'call', true, ['mid_fn']],
  ['src/a.ts', 'top', 2, 'call', true, ['middle']],
];

describe('analyzeImpact with the tree graph', () => {
  it('follows the call chain one hop at depth 1 and two at depth 2', async () => {
    const one = await impact({ depth: 1 });
    expect(one.changed.map((s) => [s.symbol, s.change, s.signatureChanged])).toEqual([
      ['base_fn', 'changed', true],
      ['core', 'changed', false],
    ]);
    expect(rows(one.dependents)).toEqual(DEPTH_1);
    expect(one.dependents.find((d) => d.path === 'tests/c.test.ts')?.test).toBe(true);
    const two = await impact({ depth: 2 });
    expect(rows(two.dependents)).toEqual(DEPTH_2);
    const three = await impact();
    expect(three.depth).toBe(3);
    expect(rows(three.dependents)).toEqual(DEPTH_2);
    expect(two.files.map((f) => [f.path, f.depth])).toContainEqual(['src/a.ts', 2]);
    expect(two.graph).toMatchObject({ source: 'tree', stale: false, truncated: false });
    expect(two.graph.commit).toBe(two.target.commit);
  });

  it('scores from dependents, files, breaking changes, size and tests, with reasons', async () => {
    const one = await impact({ depth: 1 });
    const two = await impact({ depth: 2 });
    // Hand-computed from the formula in docs/code-context.md.
    expect(two.reasons.map((r) => [r.factor, r.points])).toEqual([
      ['dependents', 14.3],
      ['files', 8.8],
      ['breaking', 12.5],
      ['size', 2.5],
      ['tests', 5],
    ]);
    expect(two.score).toBe(43);
    expect(two.level).toBe('medium');
    expect(one.score).toBe(40);
    expect(two.reasons.find((r) => r.factor === 'breaking')?.detail).toBe(
      '1 public symbols removed or re-signed, 1 of them still referenced',
    );
  });

  it('refuses a depth out of range naming the field', async () => {
    await expect(impact({ depth: 0 })).rejects.toMatchObject({ field: 'depth' });
    await expect(impact({ depth: 11 })).rejects.toMatchObject({ field: 'depth' });
    await expect(impact({ targetBranch: '--upload-pack=x' })).rejects.toMatchObject({
      field: 'target_branch',
    });
  });
});

describe('analyzeImpact with the index graph', () => {
  it('answers like the tree graph from code_refs, and is fresh when indexed at the target', async () => {
    const id = await indexAtRef(store, repo.dir, 'feature', { name: 'at-target', indexedAt: 5 });
    const graph = await indexReferenceGraph(store, id);
    const result = await impact({ depth: 2, graph });
    expect(rows(result.dependents)).toEqual(DEPTH_2);
    expect(result.graph).toMatchObject({
      source: 'index',
      collection: 'at-target',
      branch: '',
      indexedAt: 5,
      stale: false,
      staleFiles: [],
      checkedFiles: 2,
    });
    expect(result.score).toBe(43);
  });

  it('says the index is stale when it holds the base side of the changed files', async () => {
    const id = await indexAtRef(store, repo.dir, 'main', { name: 'at-base', branch: 'main' });
    const graph = await indexReferenceGraph(store, id);
    const result = await impact({ depth: 1, graph });
    expect(result.graph).toMatchObject({ source: 'index', branch: 'main', stale: true });
    expect(result.graph.staleFiles).toEqual(['py/c.py', 'src/c.ts']);
    expect(rows(result.dependents)).toEqual(DEPTH_1);
  });

  it('refuses an unknown collection', async () => {
    await expect(indexReferenceGraph(store, 9999)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('reference graphs directly', () => {
  it('return the same references to a name from both implementations', async () => {
    const id = await indexAtRef(store, repo.dir, 'feature', { name: 'direct' });
    const index = await indexReferenceGraph(store, id);
    const tree = await treeReferenceGraph(repo.dir, 'feature');
    const sort = (refs: { path: string; symbol: string | null; name: string; kind: string }[]) =>
      refs.map((r) => `${r.path} ${r.symbol} ${r.name} ${r.kind}`).sort();
    const fromIndex = sort(await index.referencesTo(['core', 'middle']));
    expect(fromIndex).toEqual(sort(await tree.referencesTo(['core', 'middle'])));
    expect(fromIndex).toEqual([
      'src/a.ts top middle call',
      'src/b.ts middle core call',
      'src/unrelated.ts lonely core call',
      'tests/c.test.ts testCore core call',
    ]);
    const importers = sort(await tree.importersOf(['src/c.ts']));
    expect(importers).toEqual(sort(await index.importersOf(['src/c.ts'])));
    expect(importers).toEqual([
      'src/b.ts null ./c import',
      'src/other.ts null ./c import',
      'tests/c.test.ts null ../src/c import',
    ]);
  });

  it('bounds the files the tree graph reads, saying so', async () => {
    const tree = await treeReferenceGraph(repo.dir, 'feature', { maxFiles: 1 });
    await tree.referencesTo(['core']);
    expect(tree.info().truncated).toBe(true);
  });
});

describe('no change', () => {
  it('scores a comparison of a branch with itself 0 and lists nothing', async () => {
    const same = await impact({ baseBranch: 'feature' });
    expect(same.changed).toEqual([]);
    expect(same.dependents).toEqual([]);
    expect(same).toMatchObject({ score: 0, level: 'low' });
    expect(same.graph).toMatchObject({ stale: false, checkedFiles: 0 });
  });
});

describe('bounds', () => {
  it('caps dependents and index rows, saying so', async () => {
    const capped = await impact({ depth: 2, maxDependents: 2 });
    expect(capped.dependents).toHaveLength(2);
    expect(capped.truncated.dependents).toBe(true);
    const id = await indexAtRef(store, repo.dir, 'feature', { name: 'rows' });
    const graph = await indexReferenceGraph(store, id, { maxRows: 1 });
    expect(await graph.referencesTo(['core'])).toHaveLength(1);
    expect(graph.info().truncated).toBe(true);
  });
});
