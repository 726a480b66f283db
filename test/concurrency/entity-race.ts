// Shared by the entity and dependency races: an arena of cairn-mcp-context processes on one
// file, seeding through core.entities in-process, and a race in which every process makes its
// own calls one at a time, all processes at once; and the check that no busy error surfaced.
import { join } from 'node:path';

import { expect } from 'vitest';

import type { Core } from '../../src/core/index.js';
import type { EntityInput, ProjectInput, Writer } from '../../src/entity/index.js';
import { ROOT } from '../helpers.js';
import { type Arena, createArena } from './fixtures.js';
import { BUSY_PATTERN, call, type Outcome, type TasksProcess } from './spawn.js';

const CONTEXT_BIN = join(ROOT, 'bin/cairn-mcp-context.js');

const SEEDER: Writer = { agent: 'seeder', provenance: {} };

/** An arena whose pool spawns the context server (no embeddings: nothing to download). */
export function createContextArena(): Promise<Arena> {
  return createArena({ bin: CONTEXT_BIN, env: { CAIRN_EMBEDDINGS: 'none' } });
}

/** Creates one entity-tool row in-process; returns its id. */
export async function seedEntity(core: Core, args: Omit<EntityInput, 'token'>): Promise<string> {
  const out = await core.entities.entity(args, SEEDER);
  if (out.record === undefined) throw new Error(`seeding ${args.resource} returned no record`);
  return out.record.id;
}

/** Creates one project-tool row in-process; returns its id. */
export async function seedProject(core: Core, args: Omit<ProjectInput, 'token'>): Promise<string> {
  const out = await core.entities.project(args, SEEDER);
  if (out.record === undefined) throw new Error(`seeding ${args.resource} returned no record`);
  return out.record.id;
}

/** One call a process makes in a race, and what it was for (a key the test groups by). */
export interface RaceCall {
  key: string;
  tool: string;
  args: Record<string, unknown>;
}

export interface RaceResult extends RaceCall {
  proc: number;
  outcome: Outcome;
}

/**
 * Every process makes its calls (`plan(i)`) in order, one at a time; all processes run at
 * once. Returns every call with its outcome and the index of the process that made it.
 */
export async function race(
  procs: readonly TasksProcess[],
  plan: (i: number) => readonly RaceCall[],
): Promise<RaceResult[]> {
  const perProc = await Promise.all(
    procs.map(async (p, i) => {
      const results: RaceResult[] = [];
      for (const c of plan(i)) {
        results.push({ ...c, proc: i, outcome: await call(p.client, c.tool, c.args) });
      }
      return results;
    }),
  );
  return perProc.flat();
}

/** The results grouped by key, in the order keys first appear. */
export function byKey(results: readonly RaceResult[]): Map<string, RaceResult[]> {
  const out = new Map<string, RaceResult[]>();
  for (const r of results) out.set(r.key, [...(out.get(r.key) ?? []), r]);
  return out;
}

/** The `record.id` of a successful entity answer. */
export function recordId(outcome: Outcome): string {
  if (outcome.kind !== 'ok') throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return String((outcome.data['record'] as { id: unknown }).id);
}

/** Lock contention must never surface: not in an answer, not in a server's log. */
export function expectNoBusy(a: Arena, outcomes: readonly Outcome[]): void {
  for (const o of outcomes) {
    expect(o.kind, JSON.stringify(o)).not.toBe('rpc-error');
    if (o.kind === 'tool-error') expect(o.text).not.toMatch(BUSY_PATTERN);
  }
  expect(a.pool.stderr()).not.toMatch(/database is locked|SQLITE_BUSY|tool call failed/);
}
