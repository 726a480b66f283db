// Room sequence numbers under contention: 8 teamchat stdio processes (separate OS processes and
// SQLite connections) post into one room at once. Every post gets a distinct seq, the room's
// seqs are exactly 1..N, and lock contention never escapes as an error.
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { BUSY_PATTERN, call, okData, type Outcome } from '../concurrency/spawn.js';
import { silentLogger, tempDir, type TempDir } from '../helpers.js';
import { spawnTeamchat, type TeamchatProcess } from '../teamchat/helpers.js';

const PROCESSES = 8;
const POSTS_EACH = 40;

describe('room sequences across processes', () => {
  let dir: TempDir | undefined;
  const procs: TeamchatProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    dir?.cleanup();
    dir = undefined;
  });

  it(`${PROCESSES} processes posting at once get gap-free, duplicate-free seqs`, async () => {
    const d = (dir = tempDir('cairn-rooms-'));
    const db = join(d.path, 'cairn.db');
    const home = join(d.path, 'home');
    await (await createCore({ dbPath: db, logger: silentLogger })).close();
    const started = await Promise.all(
      Array.from({ length: PROCESSES }, () => spawnTeamchat({ db, home })),
    );
    procs.push(...started);

    const outcomes = await Promise.all(
      started.map(async (p, i) => {
        const mine: Outcome[] = [];
        for (let n = 0; n < POSTS_EACH; n++) {
          mine.push(
            await call(p.client, 'team_chat_post', {
              text: `agent ${i} post ${n}`,
              authorAgentId: `agent-${i}`,
              teamId: 'race',
            }),
          );
        }
        return mine;
      }),
    );
    const all = outcomes.flat();
    const failed = all.filter((o) => o.kind !== 'ok');
    expect(failed, JSON.stringify(failed.slice(0, 3))).toEqual([]);
    const seqs = all.map((o) => okData<{ posted: { seq: number } }>(o).posted.seq);
    const total = PROCESSES * POSTS_EACH;
    expect(new Set(seqs).size).toBe(total);
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    // Each process saw its own seqs strictly increase (posts are sequential per agent).
    for (const mine of outcomes) {
      const own = mine.map((o) => okData<{ posted: { seq: number } }>(o).posted.seq);
      expect(own).toEqual([...own].sort((a, b) => a - b));
    }

    const core = await createCore({ dbPath: db, logger: silentLogger });
    try {
      const rows = await core.store.all<{ seq: number; author_agent_id: string; text: string }>(
        'SELECT seq, author_agent_id, text FROM room_posts WHERE room_id = ? ORDER BY seq',
        ['team:race'],
      );
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      for (const r of rows)
        expect(r.text).toMatch(new RegExp(`^agent ${r.author_agent_id.slice(6)} post`));
      expect(await core.rooms.roster('race')).toHaveLength(PROCESSES);
    } finally {
      await core.close();
    }
    for (const p of started) expect(p.stderr()).not.toMatch(BUSY_PATTERN);
  }, 120_000);
});
