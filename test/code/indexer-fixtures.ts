// Fixtures for the indexer tests: temporary trees and git repositories, a real SQLite file per
// test (kept outside the indexed tree), a provenance record, and the index read back as plain
// rows so a full and an incremental index can be compared.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { Provenance } from '../../src/activity/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';

export const PROVENANCE: Provenance = {
  session_id: 'test-session',
  repo_path: '/work/repo',
  worktree_id: 'main',
  operator_id: 'tester',
  machine_id: 'test-host',
  agent_program: 'vitest',
  model_id: 'test-model',
  delegated: false,
  timestamp: 1_700_000_000,
};

export interface Fixture {
  /** The tree to index. */
  root: string;
  store: Store;
  write(path: string, content: string): void;
  git(...args: string[]): string;
  cleanup(): Promise<void>;
}

/** A fresh tree (optionally a git repository on `main`) and a fresh database beside it. */
export async function fixture(options: { git?: boolean } = {}): Promise<Fixture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-indexer-')));
  const root = join(base, 'repo');
  mkdirSync(root);
  const store = await openSqliteStore(join(base, 'db', 'cairn.db'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  if (options.git === true) git('-c', 'init.defaultBranch=main', 'init', '-q');
  return {
    root,
    store,
    write(path, content) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    },
    git,
    async cleanup() {
      await store.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Sample sources: two TypeScript files (one importing the other), Python, and plain text. */
export const SOURCES: Record<string, string> = {
  'src/math.ts': `/** Adds. */
export function add(a: number, b: number): number {
  return a + b;
}

export class Calculator {
  total = 0;
  plus(n: number): this {
    this.total = add(this.total, n);
    return this;
  }
}
`,
  'src/main.ts': `import { add, Calculator } from './math.js';

export function run(): number {
  const c = new Calculator();
  return add(c.plus(2).total, 3);
}
`,
  'tools/report.py': `import os

def report(path):
    return os.path.basename(path)

class Reporter:
    def show(self, x):
        return report(x)
`,
  'README.md': '# sample\n\nA small tree to index.\n',
};

/** Every chunk of a collection with its file and references, in a stable order. */
export async function indexRows(store: Store, collection: string): Promise<unknown[]> {
  const chunks = await store.all<Record<string, unknown> & { id: number }>(
    `SELECT f.branch, f.path, f.language, f.hash, f.lines, f.imports, f.fallback, k.id, k.ordinal,
       k.kind, k.symbol, k.container, k.signature, k.start_line, k.end_line, k.text
     FROM code_chunks k JOIN code_files f ON f.id = k.file_id
     JOIN code_collections c ON c.id = k.collection_id
     WHERE c.name = ? ORDER BY f.branch, f.path, k.ordinal`,
    [collection],
  );
  const refs = await store.all<{ chunk_id: number; name: string; kind: string }>(
    `SELECT r.chunk_id, r.name, r.kind FROM code_refs r JOIN code_collections c ON c.id = r.collection_id
     WHERE c.name = ? ORDER BY r.kind, r.name`,
    [collection],
  );
  return chunks.map(({ id, ...chunk }) => ({
    ...chunk,
    refs: refs.filter((r) => r.chunk_id === id).map((r) => `${r.kind}:${r.name}`),
  }));
}
