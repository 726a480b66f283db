// The entity tool's exclusivity across separate OS processes on one database file: one open
// assignment per worktree and an idempotent release, and unique keys (a user's email, a
// branch name per repository), with the documented refusal for every loser and no busy error.
import { afterEach, describe, expect, it } from 'vitest';

import {
  byKey,
  createContextArena,
  expectNoBusy,
  race,
  recordId,
  seedEntity,
} from './entity-race.js';
import type { Arena } from './fixtures.js';
import { shuffled } from './spawn.js';

const PROCS = 8;

/** For each key: exactly one success, whose id `refusal(key, id)` must name in every refusal. */
function oneWinnerEach(
  results: Parameters<typeof byKey>[0],
  refusal: (key: string, winnerId: string) => string,
): Map<string, string> {
  const winners = new Map<string, string>();
  for (const [key, tries] of byKey(results)) {
    const ok = tries.filter((t) => t.outcome.kind === 'ok');
    expect(ok, `winners of ${key}`).toHaveLength(1);
    const id = recordId((ok[0] as (typeof ok)[number]).outcome);
    winners.set(key, id);
    for (const t of tries) {
      if (t.outcome.kind === 'ok') continue;
      expect(t.outcome).toMatchObject({ kind: 'tool-error', text: refusal(key, id) });
    }
  }
  return winners;
}

describe('entity exclusivity across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('8 processes racing to assign 6 worktrees: one open assignment each; one release wins', async () => {
    const a = (arena = await createContextArena());
    const worktrees = await a.withCore(async (core) => {
      const repo = await seedEntity(core, {
        action: 'create',
        resource: 'repository',
        data: { name: 'acme/app' },
      });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const data = { path: `/work/wt-${i}` };
        ids.push(
          await seedEntity(core, {
            action: 'create',
            resource: 'worktree',
            repository_id: repo,
            data,
          }),
        );
      }
      return ids;
    });
    const procs = await a.pool.spawnMany(PROCS);

    const created = await race(procs, (i) =>
      shuffled(worktrees).map((wt) => ({
        key: wt,
        tool: 'entity',
        args: {
          action: 'create',
          resource: 'assignment',
          worktree_id: wt,
          data: { agent: `agent-${i}` },
        },
      })),
    );
    expect(created).toHaveLength(PROCS * worktrees.length);
    expectNoBusy(
      a,
      created.map((r) => r.outcome),
    );
    const agentOf = new Map(
      created.filter((r) => r.outcome.kind === 'ok').map((r) => [r.key, `agent-${r.proc}`]),
    );
    const winners = oneWinnerEach(
      created,
      (wt, id) =>
        `worktree ${wt} is already assigned to ${agentOf.get(wt)} (assignment ${id}); release that assignment first`,
    );
    const open = await a.withCore((core) =>
      core.store.all<{ id: string; worktree_id: string; agent: string }>(
        'SELECT id, worktree_id, agent FROM entity_assignments WHERE released_at IS NULL',
      ),
    );
    expect(open).toHaveLength(worktrees.length);
    for (const row of open) {
      expect(row.id).toBe(winners.get(row.worktree_id));
      expect(row.agent).toBe(agentOf.get(row.worktree_id));
    }
    expect(
      await a.withCore((core) =>
        core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_assignments'),
      ),
    ).toEqual({ n: worktrees.length });

    const released = await race(procs, () =>
      shuffled([...winners.values()]).map((id) => ({
        key: id,
        tool: 'entity',
        args: { action: 'release', resource: 'assignment', id },
      })),
    );
    expectNoBusy(
      a,
      released.map((r) => r.outcome),
    );
    for (const [id, tries] of byKey(released)) {
      const answers = tries.map((t) => {
        if (t.outcome.kind !== 'ok') throw new Error(`release ${id}: ${JSON.stringify(t.outcome)}`);
        return t.outcome.data as { released: boolean; record: { releasedAt: string } };
      });
      expect(
        answers.filter((x) => x.released),
        `releases of ${id}`,
      ).toHaveLength(1);
      expect(answers.filter((x) => !x.released)).toHaveLength(PROCS - 1);
      // The losers saw the winner's release, not one of their own.
      expect(new Set(answers.map((x) => x.record.releasedAt)).size).toBe(1);
    }
    const still = await a.withCore((core) =>
      core.store.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM entity_assignments WHERE released_at IS NULL',
      ),
    );
    expect(still).toEqual({ n: 0 });
  }, 120_000);

  it('8 processes racing to create 10 users by email: one row per email, the rest refused naming it', async () => {
    const a = (arena = await createContextArena());
    const emails = Array.from({ length: 10 }, (_, i) => `dev${i}@example.com`);
    const procs = await a.pool.spawnMany(PROCS);

    const results = await race(procs, (i) =>
      shuffled(emails).map((email) => ({
        key: email,
        tool: 'entity',
        args: { action: 'create', resource: 'user', data: { email, name: `from process ${i}` } },
      })),
    );
    expectNoBusy(
      a,
      results.map((r) => r.outcome),
    );
    const winners = oneWinnerEach(
      results,
      (email, id) =>
        `a user with email ${email} already exists: ${id} (it is unique; update that one instead)`,
    );
    const rows = await a.withCore((core) =>
      core.store.all<{ id: string; email: string }>('SELECT id, email FROM entity_users'),
    );
    expect(rows).toHaveLength(emails.length);
    for (const row of rows) expect(row.id).toBe(winners.get(row.email));
  }, 120_000);

  it('8 processes racing to create 8 branch names in one repository: one row per name', async () => {
    const a = (arena = await createContextArena());
    const repo = await a.withCore((core) =>
      seedEntity(core, { action: 'create', resource: 'repository', data: { name: 'acme/lib' } }),
    );
    const names = Array.from({ length: 8 }, (_, i) => `feature/${i}`);
    const procs = await a.pool.spawnMany(PROCS);

    const results = await race(procs, () =>
      shuffled(names).map((name) => ({
        key: name,
        tool: 'entity',
        args: { action: 'create', resource: 'branch', repository_id: repo, data: { name } },
      })),
    );
    expectNoBusy(
      a,
      results.map((r) => r.outcome),
    );
    const winners = oneWinnerEach(
      results,
      (name, id) =>
        `a branch with repository_id ${repo} and name ${name} already exists: ${id} (they are unique; update that one instead)`,
    );
    const rows = await a.withCore((core) =>
      core.store.all<{ id: string; name: string }>(
        'SELECT id, name FROM entity_branches WHERE repository_id = ?',
        [repo],
      ),
    );
    expect(rows).toHaveLength(names.length);
    for (const row of rows) expect(row.id).toBe(winners.get(row.name));
  }, 120_000);
});
