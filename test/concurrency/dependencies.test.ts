// Project dependency cycles across separate OS processes on one database file: processes race
// to add a → b and b → a (and every edge of 8-node rings); no cycle is ever stored, and each
// refused call gets the cycle refusal naming the cycle it would have closed.
import { afterEach, describe, expect, it } from 'vitest';

import {
  byKey,
  createContextArena,
  expectNoBusy,
  race,
  type RaceCall,
  type RaceResult,
  seedProject,
} from './entity-race.js';
import type { Arena } from './fixtures.js';
import { shuffled } from './spawn.js';

const PROCS = 8;
const PROJECT = 'p-race';

const edge = (key: string, from: string, to: string): RaceCall => ({
  key,
  tool: 'project',
  args: {
    action: 'create',
    resource: 'dependency',
    project_id: PROJECT,
    data: { from_id: from, depends_on_id: to },
  },
});

/** The refusal text for adding `cycle[0] → cycle[1]`, which would close `cycle`. */
const cycleText = (cycle: readonly string[]): string =>
  `dependency refused: it would close a cycle ${cycle.join(' → ')} (each depends on the next)`;

/** Every outcome is a success or the cycle refusal; returns the refused calls. */
function refusedByCycle(results: readonly RaceResult[]): RaceResult[] {
  const refused = results.filter((r) => r.outcome.kind !== 'ok');
  for (const r of refused) {
    expect(r.outcome, JSON.stringify(r.outcome)).toMatchObject({
      kind: 'tool-error',
      meta: { denied: { reason: 'cycle' } },
    });
  }
  return refused;
}

/** The stored edges of the project; throws if they contain a cycle (Kahn's algorithm). */
async function storedAcyclic(a: Arena): Promise<Set<string>> {
  const rows = await a.withCore((core) =>
    core.store.all<{ from_id: string; depends_on_id: string }>(
      'SELECT from_id, depends_on_id FROM project_dependencies WHERE project_id = ?',
      [PROJECT],
    ),
  );
  const indegree = new Map<string, number>();
  const next = new Map<string, string[]>();
  for (const { from_id: f, depends_on_id: t } of rows) {
    indegree.set(f, indegree.get(f) ?? 0);
    indegree.set(t, (indegree.get(t) ?? 0) + 1);
    next.set(f, [...(next.get(f) ?? []), t]);
  }
  const queue = [...indegree].filter(([, n]) => n === 0).map(([id]) => id);
  for (let i = 0; i < queue.length; i++) {
    for (const t of next.get(queue[i] as string) ?? []) {
      const n = (indegree.get(t) ?? 0) - 1;
      indegree.set(t, n);
      if (n === 0) queue.push(t);
    }
  }
  expect(queue.length, 'a cycle was stored').toBe(indegree.size);
  return new Set(rows.map((r) => `${r.from_id}>${r.depends_on_id}`));
}

describe('dependency cycles across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('4 processes add a → b while 4 add b → a, for 16 pairs, and 8 close 6 rings of 8', async () => {
    const a = (arena = await createContextArena());
    const { pairs, rings } = await a.withCore(async (core) => {
      await seedProject(core, { action: 'create', resource: 'project', project_id: PROJECT });
      const issue = (title: string) =>
        seedProject(core, {
          action: 'create',
          resource: 'issue',
          project_id: PROJECT,
          data: { title },
        });
      const ps: [string, string][] = [];
      for (let k = 0; k < 16; k++) ps.push([await issue(`a${k}`), await issue(`b${k}`)]);
      const rs: string[][] = [];
      for (let r = 0; r < 6; r++) {
        const ring: string[] = [];
        for (let i = 0; i < PROCS; i++) ring.push(await issue(`ring ${r} node ${i}`));
        rs.push(ring);
      }
      return { pairs: ps, rings: rs };
    });
    const procs = await a.pool.spawnMany(PROCS);

    // Pairs: process i < 4 adds a → b, process i ≥ 4 adds b → a, each for the pairs k ≡ i mod 4,
    // so every pair is raced by one process of each set and no call is a plain duplicate.
    // Rings: process i adds node i → node i+1 of every ring. All of it shuffled per process.
    const results = await race(procs, (i) => {
      const mine = pairs.filter((_, k) => k % 4 === i % 4);
      const pairCalls = mine.map(([x, y], k) =>
        i < 4 ? edge(`pair ${k}:${i % 4}`, x, y) : edge(`pair ${k}:${i % 4}`, y, x),
      );
      const ringCalls = rings.map((ring, r) =>
        edge(`ring ${r}`, ring[i] as string, ring[(i + 1) % PROCS] as string),
      );
      return shuffled([...pairCalls, ...ringCalls]);
    });
    expect(results).toHaveLength(16 * 2 + 6 * PROCS);
    expectNoBusy(
      a,
      results.map((r) => r.outcome),
    );
    const refused = refusedByCycle(results);

    const stored = await storedAcyclic(a);
    for (const [key, tries] of byKey(results)) {
      const ok = tries.filter((t) => t.outcome.kind === 'ok');
      expect(ok, `edges stored for ${key}`).toHaveLength(key.startsWith('ring') ? PROCS - 1 : 1);
    }
    expect(refused).toHaveLength(16 + 6);
    expect(stored.size).toBe(16 + 6 * (PROCS - 1));

    for (const r of refused) {
      const data = r.args['data'] as { from_id: string; depends_on_id: string };
      const { from_id: from, depends_on_id: to } = data;
      const ring = rings.find((nodes) => nodes.includes(from));
      // The cycle runs from the refused edge's from, to its to, along the stored edges back.
      const cycle =
        ring === undefined
          ? [from, to, from]
          : [...ring.slice(ring.indexOf(from)), ...ring.slice(0, ring.indexOf(from)), from];
      expect(r.outcome).toMatchObject({ text: cycleText(cycle) });
      expect(stored.has(`${from}>${to}`)).toBe(false);
    }
  }, 120_000);
});
