// `cairn index` as a user runs it (the built bin, so the job's worker is dist/'s job-worker.js):
// progress lines on a non-terminal stderr, the summary on stdout, JSON with ISO times, a dry run
// that writes nothing, and exit 1 when nothing matches.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openStoreAt } from '../../src/store/index.js';
import { backendEnv, backendFor, tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

describe('cairn index', () => {
  let home: TempDir;
  let tree: string;
  let db: string;
  let dropDb: () => Promise<void>;
  beforeEach(async () => {
    home = tempDir('cairn-index-cli-');
    tree = join(home.path, 'project');
    db = join(home.path, 'index.db');
    // On the postgres project `cairn index --db FILE` writes a fresh database standing in for it.
    dropDb = await backendFor(db);
    mkdirSync(join(tree, 'src'), { recursive: true });
    writeFileSync(join(tree, 'src/a.ts'), 'export function a(): number {\n  return 1;\n}\n');
    writeFileSync(join(tree, 'src/b.py'), 'def b():\n    return 2\n');
  });
  afterEach(async () => {
    await dropDb();
    home.cleanup();
  });

  it('indexes a directory in a worker and prints progress and a summary', async () => {
    const run = await cairn(home.path, ['index', tree, '--db', db]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^project: done in/);
    expect(run.stdout).toMatch(/files: 2 indexed, 0 unchanged, 0 removed/);
    expect(run.stderr).toMatch(/\] 100%|files found|chunking/);
    const store = await openStoreAt(backendEnv(db)['CAIRN_DB_URL'] ?? db);
    const chunks = await store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM code_chunks WHERE symbol IN ('a', 'b')",
    );
    await store.close();
    expect(chunks?.n).toBe(2);
    const again = await cairn(home.path, ['index', tree, '--db', db, '--json']);
    expect(again.code, again.stderr).toBe(0);
    const status = JSON.parse(again.stdout) as {
      state: string;
      files: { unchanged: number };
      finishedAt: string;
    };
    expect(status).toMatchObject({ state: 'done', files: { unchanged: 2 } });
    expect(status.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('dry-runs without writing, and exits 1 when nothing matches', async () => {
    const plan = await cairn(home.path, ['index', tree, '--db', db, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      files: 2,
      languages: { typescript: 1, python: 1 },
    });
    const store = await openStoreAt(backendEnv(db)['CAIRN_DB_URL'] ?? db);
    const jobs = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_jobs');
    await store.close();
    expect(jobs?.n).toBe(0);
    const none = await cairn(home.path, ['index', tree, '--db', db, '--extensions', 'zig']);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/project: failed/);
    expect(none.stdout).toMatch(/no file to index/);
    const bad = await cairn(home.path, ['index', join(tree, 'missing'), '--db', db]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/does not exist/);
  });
});
