// Two OS processes (real stdio bins, each its own SQLite connection) saving to one database
// file at once: nothing is lost, nothing is merged, and full text finds every fact.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { BUSY_PATTERN, call } from '../concurrency/spawn.js';
import { tempCore, tempDir, type TempDir } from '../helpers.js';
import type { Saved } from './fixtures.js';
import { type MemoryProcess, spawnMemory } from './spawn.js';

const PER_PROCESS = 200;
/** Requests each client keeps in flight. */
const IN_FLIGHT = 8;

describe('two processes saving at once', () => {
  let dir: TempDir;
  let db: string;
  const procs: MemoryProcess[] = [];

  beforeEach(() => {
    dir = tempDir('cairn-memory-race-');
    db = join(dir.path, 'cairn.db');
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    dir.cleanup();
  });

  it(`2 × ${PER_PROCESS} concurrent saves: all ${2 * PER_PROCESS} facts present and findable`, async () => {
    const home = join(dir.path, 'home');
    const started = await Promise.all([0, 1].map(() => spawnMemory({ db, home })));
    procs.push(...started);

    const saveAll = async (p: number, proc: MemoryProcess): Promise<string[]> => {
      const idsOut: string[] = new Array<string>(PER_PROCESS);
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < PER_PROCESS) {
          const i = next++;
          const out = await call(proc.client, 'memory_save', {
            title: `race p${p} #${i}`,
            content: `Concurrent fact racep${p}n${i} written by process ${p}; shared word pelican.`,
            tags: [`p${p}`],
            ...(i % 2 === 0 ? { scopeTeamId: `team${p}` } : {}),
          });
          if (out.kind !== 'ok') throw new Error(`p${p} #${i}: ${JSON.stringify(out)}`);
          const saved = out.data as unknown as Saved;
          if (saved.deduplicated === true || saved.fact === undefined) {
            throw new Error(`p${p} #${i} was not a new fact: ${JSON.stringify(saved)}`);
          }
          idsOut[i] = saved.fact.id;
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      return idsOut;
    };
    const [a, b] = await Promise.all(started.map((proc, p) => saveAll(p, proc)));
    const all = [...(a ?? []), ...(b ?? [])];
    expect(new Set(all).size).toBe(2 * PER_PROCESS);
    for (const p of procs) expect(p.stderr()).not.toMatch(BUSY_PATTERN);
    await Promise.all(procs.splice(0).map((p) => p.close()));

    // A fresh connection on the same file sees everything, and full text finds each fact.
    const reader = await tempCore({ dbPath: db, embedder: null });
    try {
      const count = await reader.core.store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM memory_items WHERE kind = 'fact'",
      );
      expect(count?.n).toBe(2 * PER_PROCESS);
      for (const p of [0, 1]) {
        const list = p === 0 ? a : b;
        for (let i = 0; i < PER_PROCESS; i++) {
          const scope = i % 2 === 0 ? { teamId: `team${p}` } : {};
          const found = await reader.core.memory.search({ query: `racep${p}n${i}`, scope });
          expect(
            found.results.map((r) => r.id),
            `racep${p}n${i}`,
          ).toEqual([list?.[i]]);
        }
      }
      const everyone = await reader.core.memory.search({
        query: 'pelican',
        limit: 100,
        scope: {},
      });
      expect(everyone.results).toHaveLength(100);
      const integrity = await reader.core.store.get<{ integrity_check: string }>(
        'PRAGMA integrity_check',
      );
      expect(integrity?.integrity_check).toBe('ok');
    } finally {
      await reader.close();
    }
  }, 150_000);
});
