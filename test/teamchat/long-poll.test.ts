// Long-poll: team_chat_subscribe with waitMs answers as soon as a teammate posts — within
// 100 ms — whether the post comes through this process, another connection, or another OS
// process on the same database file. Your own posts never end the wait.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { callOk, silentLogger } from '../helpers.js';
import { type Page, spawnTeamchat, type TeamchatProcess, teamchatSessions } from './helpers.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const WAKE_MS = 100;

describe('team_chat_subscribe long-poll', () => {
  const sessions = teamchatSessions();
  const procs: TeamchatProcess[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    await sessions.closeAll();
  });

  it('wakes within 100 ms of a post made through the same process', async () => {
    const core = await sessions.open();
    const ann = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'ann' });
    const bob = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'bob' });
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const waiting = callOk<Page>(bob, 'team_chat_subscribe', { sinceSeq: round, waitMs: 10_000 });
      let delivered = 0;
      void waiting.then(() => (delivered = performance.now()));
      await sleep(150);
      expect(delivered).toBe(0);
      await callOk(ann, 'team_chat_post', { text: `ping ${round}` });
      const posted = performance.now();
      const page = await waiting;
      expect(page.posts.map((p) => p.seq)).toEqual([round + 1]);
      expect(delivered - posted).toBeLessThan(WAKE_MS);
      expect(delivered - started).toBeLessThan(5000);
    }
  });

  it('is not woken by your own post, and returns empty at the timeout', async () => {
    const core = await sessions.open();
    const ann = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'ann' });
    const started = performance.now();
    const waiting = callOk<Page>(ann, 'team_chat_subscribe', { waitMs: 400 });
    await sleep(50);
    await callOk(ann, 'team_chat_post', { text: 'talking to myself' });
    const page = await waiting;
    const took = performance.now() - started;
    expect(page).toEqual({ posts: [], nextSeq: 1 });
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(2000);
  });

  it('answers at once when a post is already pending', async () => {
    const core = await sessions.open();
    const ann = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'ann' });
    const bob = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'bob' });
    await callOk(ann, 'team_chat_post', { text: 'already here' });
    const started = performance.now();
    const page = await callOk<Page>(bob, 'team_chat_subscribe', { waitMs: 30_000 });
    expect(page.posts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(WAKE_MS);
  });

  it('wakes within 100 ms of a post from another connection on the same file', async () => {
    const core = await sessions.open();
    // Its own connection to the same store (the same file, or the same PostgreSQL database).
    const other = await createCore({
      dbPath: core.dbPath,
      dbUrl: core.store.dialect === 'postgres' ? core.store.locator : '',
      logger: silentLogger,
    });
    try {
      const bob = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'bob' });
      const waiting = callOk<Page>(bob, 'team_chat_subscribe', { waitMs: 10_000 });
      await sleep(200);
      await other.rooms.post({
        roomId: 'team:t1',
        authorAgentId: 'ann',
        text: 'via another connection',
      });
      const posted = performance.now();
      const page = await waiting;
      expect(performance.now() - posted).toBeLessThan(WAKE_MS);
      expect(page.posts.map((p) => p.authorAgentId)).toEqual(['ann']);
    } finally {
      await other.close();
    }
  });

  it('wakes within 100 ms of a post from another OS process', async () => {
    const core = await sessions.open();
    const home = join(core.dbPath, '..', 'home');
    const poster = await spawnTeamchat({
      db: core.dbPath,
      home,
      args: ['--room-team', 't1', '--author', 'ann'],
    });
    procs.push(poster);
    const bob = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'bob' });
    for (let round = 0; round < 3; round++) {
      let delivered = 0;
      const waiting = callOk<Page>(bob, 'team_chat_subscribe', { sinceSeq: round, waitMs: 10_000 });
      void waiting.then(() => (delivered = Date.now()));
      await sleep(200);
      expect(delivered).toBe(0);
      await callOk(poster.client, 'team_chat_post', { text: `from pid ${round}` });
      const acked = Date.now();
      const page = await waiting;
      const row = await core.store.get<{ created_at: number }>(
        'SELECT created_at FROM room_posts WHERE room_id = ? AND seq = ?',
        ['team:t1', round + 1],
      );
      expect(page.posts.map((p) => p.authorAgentId)).toEqual(['ann']);
      // From the commit (the poster's clock, same machine) and from its acknowledgement.
      expect(delivered - (row?.created_at ?? 0)).toBeLessThan(WAKE_MS);
      expect(delivered - acked).toBeLessThan(WAKE_MS);
    }
    expect(poster.stderr()).not.toMatch(/error/i);
  });
});
