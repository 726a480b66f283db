// The VCS family of cairn-context through a real SDK client over a temporary git repository
// with known changes: compare_branches (files and symbols), analyze_impact (a call chain, by
// the tree graph when nothing is indexed), list_repos (empty, then an indexed collection), the
// workspace default for repo_path, and refusals as tool errors naming their field.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { BranchComparison, ImpactAnalysis, IndexedRepo } from '../../src/code/index.js';
import { createTestRepo, type TestRepo } from '../../src/code/vcs/test-repo.js';
import type { Core } from '../../src/core/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, linkedClient, tempCore } from '../helpers.js';
import { callContext, discoveryOf, FULL_ENV } from './fixtures.js';

const A_TS = 'export function a(x: number) {\n  return x + 1;\n}\n';
const B_TS = "import { a } from './a';\n\nexport function b(x: number) {\n  return a(x) * 2;\n}\n";
const C_TS = "import { b } from './b';\n\nexport function c() {\n  return b(3);\n}\n";

describe('cairn-context: the vcs family', () => {
  let repo: TestRepo;
  let core: Core;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    repo = createTestRepo('cairn-vcs-tools-');
    repo.write('src/a.ts', A_TS);
    repo.write('src/b.ts', B_TS);
    repo.write('src/c.ts', C_TS);
    repo.write('src/gone.ts', 'export function gone() {\n  return 0;\n}\n');
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/a.ts', 'export function a(x: number) {\n  return x + 2;\n}\n');
    repo.write('src/new.ts', 'export function fresh() {\n  return 1;\n}\n');
    repo.remove('src/gone.ts');
    repo.commit('feature');
    const t = await tempCore({
      embedder: null,
      codeRoots: [repo.dir],
      provenance: discoveryOf(FULL_ENV, repo.dir),
    });
    core = t.core;
    client = await linkedClient(createContextServer(core));
    close = async () => {
      await client.close();
      await t.close();
      repo.cleanup();
    };
  });
  afterEach(() => close());

  it('compare_branches lists the files and the declarations the branch changes', async () => {
    const { data, text } = await callContext<BranchComparison>(client, 'compare_branches', {
      repo_path: repo.dir,
      base_branch: 'main',
      target_branch: 'feature',
    });
    expect(data.files.map((f) => [f.status, f.path]).sort()).toEqual([
      ['added', 'src/new.ts'],
      ['modified', 'src/a.ts'],
      ['removed', 'src/gone.ts'],
    ]);
    expect(data.symbols.map((s) => [s.change, s.symbol]).sort()).toEqual([
      ['added', 'fresh'],
      ['changed', 'a'],
      ['removed', 'gone'],
    ]);
    expect(data.totals).toEqual({ files: 3, linesAdded: 4, linesRemoved: 4 });
    expect(text).toContain('Symbols: 1 added, 1 removed, 1 changed');
  });

  it('repo_path defaults to the workspace discovered at start', async () => {
    const { data } = await callContext<BranchComparison>(client, 'compare_branches', {
      base_branch: 'main',
      target_branch: 'feature',
    });
    expect(data.repoPath).toBe(repo.dir);
    expect(data.files).toHaveLength(3);
  });

  it('analyze_impact follows the call chain to the requested depth', async () => {
    const one = await callContext<ImpactAnalysis>(client, 'analyze_impact', {
      repo_path: repo.dir,
      base_branch: 'main',
      target_branch: 'feature',
      depth: 1,
    });
    const two = await callContext<ImpactAnalysis>(client, 'analyze_impact', {
      repo_path: repo.dir,
      base_branch: 'main',
      target_branch: 'feature',
      depth: 2,
    });
    const reached = (r: ImpactAnalysis) => r.dependents.map((d) => `${d.path}:${d.symbol}`).sort();
    expect(reached(one.data)).toEqual(['src/b.ts:b']);
    expect(reached(two.data)).toEqual(['src/b.ts:b', 'src/c.ts:c']);
    expect(two.data.graph.source).toBe('tree');
    expect(two.data.score).toBeGreaterThan(0);
    expect(two.data.reasons.length).toBeGreaterThan(0);
    expect(two.text).toMatch(/^Impact \d+\/100/);
  });

  it('list_repos says when nothing is indexed, then lists an indexed collection', async () => {
    const empty = await callContext<{ repos: IndexedRepo[] }>(client, 'list_repos', {});
    expect(empty.data.repos).toEqual([]);
    expect(empty.text).toContain('No repository is indexed yet');
    const now = Date.now();
    await core.store.write(async (tx) => {
      await tx.run(
        `INSERT INTO code_collections (name, root, mode, state, files, chunks, created_at, updated_at, indexed_at)
         VALUES ('demo', ?, 'filesystem', 'ready', 0, 0, ?, ?, ?)`,
        [repo.dir, now, now, now],
      );
    });
    const listed = await callContext<{ repos: Record<string, unknown>[] }>(
      client,
      'list_repos',
      {},
    );
    expect(listed.data.repos.map((r) => r.collection)).toEqual(['demo']);
    expect(listed.data.repos[0]?.indexedAt).toBe(new Date(now).toISOString());
    expect(listed.data.repos[0]?.branches).toMatchObject({ current: 'feature' });
  });

  it('refuses bad refs and paths as tool errors naming the field', async () => {
    expect(
      await callInvalid(client, 'compare_branches', {
        repo_path: repo.dir,
        base_branch: '--upload-pack=x',
      }),
    ).toMatch(/base_branch/);
    expect(
      await callInvalid(client, 'compare_branches', {
        repo_path: repo.dir,
        base_branch: 'main',
        target_branch: 'no-such-branch',
      }),
    ).toMatch(/target_branch/);
    expect(
      await callInvalid(client, 'analyze_impact', { repo_path: '/etc', base_branch: 'main' }),
    ).toMatch(/repo_path/);
    expect(await callInvalid(client, 'analyze_impact', { repo_path: repo.dir, depth: 11 })).toMatch(
      /depth/,
    );
  });
});
