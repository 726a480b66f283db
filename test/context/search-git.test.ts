// search_code over git refs, through a real SDK client: a temporary repository whose branches
// differ, indexed with index_repo git_index (main and feature) and as a work tree; each hit
// names the ref it came from, `branch:` narrows to one ref (`@` the work tree), and a ref that
// removed what the query matches answers filtered_out.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { CodeSearchResult } from '../../src/code/index.js';
import { createTestRepo, type TestRepo } from '../../src/code/vcs/test-repo.js';
import { createContextServer } from '../../src/mcp/index.js';
import { linkedClient, tempCore } from '../helpers.js';
import { callContext, discoveryOf, FULL_ENV } from './fixtures.js';

const ALPHA = 'export function alphaRoute(path: string) {\n  return path.trim();\n}\n';
const BETA = 'export function betaHandler(req: string) {\n  return alphaRoute(req);\n}\n';

describe('cairn-context: search_code over git refs', () => {
  let repo: TestRepo;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    repo = createTestRepo('cairn-search-git-');
    repo.write('src/alpha.ts', ALPHA);
    repo.commit('base');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/beta.ts', BETA);
    repo.commit('feature');
    // The work tree (on feature) also holds an uncommitted file.
    repo.write('src/gamma.ts', 'export function gammaDraft() {\n  return betaHandler("x");\n}\n');
    const t = await tempCore({
      embedder: null,
      codeRoots: [repo.dir],
      provenance: discoveryOf(FULL_ENV, repo.dir),
    });
    client = await linkedClient(createContextServer(t.core));
    close = async () => {
      await client.close();
      await t.close();
      repo.cleanup();
    };
  });
  afterEach(() => close());

  const search = (args: Record<string, unknown>) =>
    callContext<CodeSearchResult>(client, 'search_code', args);

  it('names the ref of each hit and narrows with branch:', async () => {
    await callContext(client, 'index_repo', {
      path: repo.dir,
      collection: 'refs',
      action: 'git_index',
      branches: ['main', 'feature'],
    });
    const both = await search({ query: 'alphaRoute', filters: ['symbol:alphaRoute'] });
    expect(both.data.results.map((h) => h.branch).sort()).toEqual(['feature', 'main']);
    expect(both.text).toMatch(/src\/alpha\.ts:1-3 alphaRoute \(typescript function @main\)/);

    const feature = await search({ query: 'betaHandler', filters: ['branch:feature'] });
    expect(feature.data.status).toBe('ok');
    expect(feature.data.results.map((h) => [h.branch, h.path])).toEqual([
      ['feature', 'src/beta.ts'],
    ]);
    // main never had betaHandler: the filter removed every chunk the query matches.
    const main = await search({ query: 'betaHandler', filters: ['branch:main'] });
    expect(main.data).toMatchObject({ status: 'filtered_out', results: [] });
    expect(main.text).toMatch(/^FILTERED OUT: /);
    // Uncommitted work is not in a git_index collection.
    const draft = await search({ query: 'gammaDraft', collection: 'refs' });
    expect(draft.data.status).toBe('no_match');
  });

  it('branch:@ is the work tree, uncommitted files included', async () => {
    await callContext(client, 'index_repo', { path: repo.dir, collection: 'tree' });
    await callContext(client, 'index_repo', {
      path: repo.dir,
      collection: 'refs',
      action: 'git_index',
      branches: ['main'],
    });
    const r = await search({ query: 'gammaDraft', filters: ['branch:@'] });
    expect(r.data.results.map((h) => [h.collection, h.branch, h.path])).toEqual([
      ['tree', '', 'src/gamma.ts'],
    ]);
    const refs = await search({ query: 'alphaRoute', filters: ['branch:main'] });
    expect(refs.data.results.map((h) => [h.collection, h.branch])).toEqual([['refs', 'main']]);
  });
});
