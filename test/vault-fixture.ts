// Test fixture for the vault domain: a temp directory with a store (SQLite, or PostgreSQL on the
// postgres project) and a scrubber, files written relative to it, removed afterwards. Imported
// by tests only (kept out of index.ts).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { createScrubber, type Scrubber } from '../src/memory/index.js';
import type { Store } from '../src/store/index.js';
import { tempStore } from './store-backends.js';

export interface VaultFixture {
  dir: string;
  store: Store;
  scrubber: Scrubber;
  /** Writes `text` at `rel` under dir (folders made), optionally with an mtime (seconds). */
  write(rel: string, text: string, mtimeSec?: number): string;
  /** Sets a file's mtime (seconds since the epoch). */
  touch(rel: string, mtimeSec: number): void;
  close(): Promise<void>;
}

let scrubber: Scrubber | undefined;

export async function vaultFixture(): Promise<VaultFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-vault-'));
  const temp = await tempStore();
  const store = temp.store;
  scrubber ??= createScrubber();
  const touch = (rel: string, t: number) => utimesSync(join(dir, rel), t, t);
  return {
    dir,
    store,
    scrubber,
    write(rel, text, mtimeSec) {
      const path = join(dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      if (mtimeSec !== undefined) touch(rel, mtimeSec);
      return path;
    },
    touch,
    async close() {
      await temp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
