// The VCS tool schemas and the mapping to domain options, including repo_id → indexed root.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../../store/index.js';
import {
  analyzeImpactInput,
  compareBranchesInput,
  impactOptionsOf,
  listReposInput,
  listReposOptionsOf,
  repoPathOf,
} from './schemas.js';

let dir = '';
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-vcs-schemas-'));
  store = await openSqliteStore(join(dir, 'cairn.db'));
  await store.run(
    `INSERT INTO code_collections (name, root, mode, repo_id, state, created_at, updated_at, indexed_at)
     VALUES ('a', '/srv/a', 'git', 'r1', 'ready', 1, 1, 5)`,
  );
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('VCS schemas', () => {
  it('accepts the spec parameters and refuses out-of-range ones', () => {
    expect(analyzeImpactInput.parse({ repo_path: '/x', depth: 2 })).toEqual({
      repo_path: '/x',
      depth: 2,
    });
    expect(analyzeImpactInput.safeParse({ depth: 11 }).success).toBe(false);
    expect(compareBranchesInput.safeParse({ base_branch: '' }).success).toBe(false);
    expect(compareBranchesInput.safeParse({ limit: 0 }).success).toBe(false);
    expect(listReposInput.safeParse({ limit: 501 }).success).toBe(false);
  });

  it('maps arguments to options, resolving a repo_id to its indexed root', async () => {
    const options = await impactOptionsOf(store, { repo_id: 'r1', base_branch: 'main', depth: 1 });
    expect(options).toEqual({ repoPath: '/srv/a', baseBranch: 'main', depth: 1 });
    expect(listReposOptionsOf({ query: 'feat', limit: 3 })).toEqual({ query: 'feat', limit: 3 });
    await expect(repoPathOf(store, { repo_id: 'nope' })).rejects.toMatchObject({
      field: 'repo_path',
    });
    await expect(repoPathOf(store, {})).rejects.toMatchObject({ field: 'repo_path' });
  });
});
