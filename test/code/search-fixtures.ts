// A small code index for code-search tests, written the way the indexer writes it (collections,
// files, chunks), over a real store in a temp folder whose files exist on disk, so freshness
// checks have something to stat. Also a provenance record and a deterministic stub embedder.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { Provenance } from '../../src/activity/index.js';
import type { CodeEmbedder } from '../../src/code/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { addCollection, addFile, type ChunkRow } from '../code-rows.js';

export const PROVENANCE: Provenance = {
  session_id: 'test-session-1',
  repo_path: '/work/repo',
  worktree_id: 'main',
  operator_id: 'ada',
  machine_id: 'box1',
  agent_program: 'vitest',
  model_id: 'gpt-5',
  delegated: false,
  timestamp: 1_767_225_600,
};

export interface Fixture {
  dir: string;
  root: string;
  store: Store;
  close(): Promise<void>;
}

export async function openFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-code-search-'));
  const root = join(dir, 'repo');
  mkdirSync(root);
  const store = await openSqliteStore(join(dir, 'cairn.db'));
  return {
    dir,
    root,
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface SeedFile {
  path: string;
  language: string | null;
  chunks: ChunkRow[];
  branch?: string;
}

const LRU = `export class LruCache {
  private map = new Map<string, string>();

  /** Reads a key and marks it recently used. */
  get(key: string): string | undefined {
    const value = this.map.get(key);
    if (value !== undefined) this.touch(key, value);
    return value;
  }

  /** Drops the least recently used entry once the cache is full. */
  evict(): void {
    const oldest = this.map.keys().next().value;
    if (oldest !== undefined) this.map.delete(oldest);
  }
}`;

const lines = (text: string, from: number, to: number): string =>
  text
    .split('\n')
    .slice(from - 1, to)
    .join('\n');

export const APP_FILES: readonly SeedFile[] = [
  {
    path: 'src/cache/lru.ts',
    language: 'typescript',
    chunks: [
      {
        kind: 'class',
        symbol: 'LruCache',
        signature: 'export class LruCache',
        text: 'export class LruCache {\n  private map = new Map<string, string>();\n  get(key: string): string | undefined { … }\n  evict(): void { … }\n}',
        startLine: 1,
        endLine: 16,
      },
      {
        kind: 'method',
        symbol: 'LruCache.get',
        signature: 'get(key: string): string | undefined',
        text: lines(LRU, 4, 9),
        startLine: 4,
      },
      {
        kind: 'method',
        symbol: 'LruCache.evict',
        signature: 'evict(): void',
        text: lines(LRU, 11, 15),
        startLine: 11,
      },
    ],
  },
  {
    path: 'src/http/server.ts',
    language: 'typescript',
    chunks: [
      {
        symbol: 'startServer',
        signature: 'export function startServer(port: number): Server',
        text: 'export function startServer(port: number): Server {\n  const server = createServer(handle);\n  server.listen(port);\n  return server;\n}',
      },
      {
        symbol: 'parseRequest',
        signature: 'function parseRequest(raw: string): Request',
        text: 'function parseRequest(raw: string): Request {\n  const [head, body] = raw.split("\\r\\n\\r\\n");\n  return { head, body };\n}',
        startLine: 7,
      },
    ],
  },
  {
    path: 'lib/users.py',
    language: 'python',
    chunks: [
      {
        symbol: 'load_user_profile',
        signature: 'def load_user_profile(user_id)',
        text: 'def load_user_profile(user_id):\n    """Loads the profile of one user from disk."""\n    with open(path_of(user_id)) as f:\n        return json.load(f)',
      },
      {
        symbol: 'retry_with_backoff',
        signature: 'def retry_with_backoff(fn, attempts=3)',
        text: 'def retry_with_backoff(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except IOError:\n            time.sleep(2 ** i)',
        startLine: 6,
      },
    ],
  },
  {
    path: 'docs/cache.md',
    language: null,
    chunks: [
      {
        kind: 'window',
        symbol: null,
        text: '# Cache\n\nThe LRU cache evicts the least recently used key when full.',
      },
    ],
  },
  {
    path: 'src/cache/lru.ts',
    language: 'typescript',
    branch: 'main',
    chunks: [
      {
        kind: 'method',
        symbol: 'LruCache.get',
        signature: 'get(key: string): string | undefined',
        text: 'get(key: string): string | undefined {\n  return this.map.get(key); // cache lookup on main\n}',
        startLine: 4,
      },
    ],
  },
];

/** Writes the work-tree files to disk and records their real size and mtime. */
function onDisk(root: string, f: SeedFile): { size: number; mtimeMs: number } {
  const abs = join(root, f.path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, f.chunks.map((c) => c.text).join('\n\n'));
  const st = statSync(abs);
  return { size: st.size, mtimeMs: Math.trunc(st.mtimeMs) };
}

/** Collection `app` (the files above, at `root`) and `other` (one Go file); returns their ids. */
export async function seedCorpus(fx: Fixture, indexedAt = Date.now()) {
  return fx.store.write(async (tx) => {
    const app = await addCollection(tx, 'app', { root: fx.root, indexedAt });
    const chunks: Record<string, number> = {};
    for (const f of APP_FILES) {
      const disk = f.branch === undefined ? onDisk(fx.root, f) : { size: 1, mtimeMs: 1 };
      const made = await addFile(tx, app, f.path, f.chunks, {
        branch: f.branch ?? '',
        language: f.language,
        ...disk,
      });
      f.chunks.forEach((c, i) => {
        chunks[`${f.branch ?? ''}:${c.symbol ?? f.path}`] = made.chunks[i] ?? 0;
      });
    }
    const other = await addCollection(tx, 'other', { indexedAt });
    await addFile(
      tx,
      other,
      'config.go',
      [
        {
          symbol: 'ParseConfig',
          signature: 'func ParseConfig(path string) (*Config, error)',
          text: 'func ParseConfig(path string) (*Config, error) {\n\treturn load(path)\n}',
        },
      ],
      { language: 'go' },
    );
    return { app, other, chunks };
  });
}

/** Two topics as two axes (caching, networking) plus a small constant: deterministic. */
const AXES = [/cache|lru|evict|key/i, /server|http|request|port/i, /user|profile/i] as const;
export function stubEmbedder(model = 'stub:3'): CodeEmbedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    model,
    calls,
    warm: () => undefined,
    isReady: () => true,
    embed: (texts) => {
      calls.push([...texts]);
      return Promise.resolve(
        texts.map((t) => {
          const v = Float32Array.from(AXES, (re) => (re.test(t) ? 1 : 0.05));
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        }),
      );
    },
  };
}
