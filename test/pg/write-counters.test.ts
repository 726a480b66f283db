// Migration 33 on a PostgreSQL database written before it: a room's counter row starts at its
// highest post, and the tasks' and comments' insertion sequences start past their highest seq,
// so the next post, task and comment continue where the data left off.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { createBoard } from '../../src/board/index.js';
import { createRooms } from '../../src/rooms/index.js';
import { openPgStore } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { migratePg } from '../../src/store/pg/pg-migrate.js';
import { admin, pgAdminUrl, withDatabase } from '../pg-databases.js';

const adminUrl = pgAdminUrl() ?? '';

describe.skipIf(adminUrl === '')('migration 33 on PostgreSQL (write counters)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('continues room numbers and insertion sequences from the rows already there', async () => {
    const name = `cairn_mig33_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
    cleanups.push(async () => {
      await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    });
    const url = withDatabase(adminUrl, name);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await migratePg(
        client,
        MIGRATIONS.filter((m) => m.version < 33),
      );
      await client.query(
        "INSERT INTO tasks (id, title, status, created_at, updated_at, seq) VALUES ('old', 'x', 'todo', 5, 5, 7)",
      );
      await client.query(
        "INSERT INTO task_comments (id, task_id, body, author_type, created_at, seq) VALUES ('c-old', 'old', 'b', 'agent', 5, 9)",
      );
      for (const seq of [1, 2, 3])
        await client.query(
          "INSERT INTO room_posts (room_id, seq, author_agent_id, kind, text, created_at) VALUES ('team:t', $1, 'a', 'message', 'hi', 5)",
          [seq],
        );
    } finally {
      await client.end();
    }
    const store = await openPgStore(url);
    const board = createBoard(store);
    const rooms = createRooms(store, { board });
    cleanups.push(() => store.close());
    cleanups.push(() => Promise.resolve(rooms.close()));
    const task = await board.createTask({ title: 'new' });
    const comment = await board.addComment({ taskId: 'old', body: 'new' });
    const seqOf = async (table: string, id: string): Promise<number | undefined> =>
      (await store.get<{ seq: number }>(`SELECT seq FROM ${table} WHERE id = ?`, [id]))?.seq;
    expect(await seqOf('tasks', task.id)).toBe(8);
    expect(await seqOf('task_comments', comment.id)).toBe(10);
    const post = await rooms.post({ roomId: 'team:t', authorAgentId: 'b', text: 'next' });
    expect(post.seq).toBe(4);
    const fresh = await rooms.post({ roomId: 'team:new', authorAgentId: 'b', text: 'first' });
    expect(fresh.seq).toBe(1);
  });
});
