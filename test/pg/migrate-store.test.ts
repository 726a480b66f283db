// cairn migrate-store on a real PostgreSQL: a SQLite store written through the servers is copied
// (the built CLI), verified table by table, then served by a core on PostgreSQL: the board lists
// and claims, rooms continue their sequence, ids continue after the copied ones. Refusals (a
// non-empty target, naming the table), a dry run that writes nothing, one snapshot copied while
// the file is written to, and a failure mid-copy that leaves the target empty.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { createTasksServer } from '../../src/mcp/index.js';
import {
  MigrateStoreError,
  type MigrateStoreReport,
  migrateSqliteToPg,
} from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { seededRows } from '../../src/store/pg/migrate-plan.js';
import { cairn } from '../cli/run.js';
import { callOk, linkedClient, silentLogger, tempDir } from '../helpers.js';
import { admin, freshPgDatabase, pgAdminUrl, withDatabase } from '../pg-databases.js';
import { buildSqliteSource, ROOM, type SourceFacts } from './migrate-fixture.js';

const adminUrl = pgAdminUrl() ?? '';
let built: SourceFacts | undefined;

/** The SQLite store every test copies (built once: the tests only read it). */
function src(): SourceFacts {
  if (built === undefined) throw new Error('the SQLite source was not built');
  return built;
}
const drops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  built = await buildSqliteSource();
}, 120_000);
afterAll(() => built?.cleanup());
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** A migrated, empty database (a copy of the run's template). */
async function target(): Promise<string> {
  const db = await freshPgDatabase(adminUrl);
  drops.push(db.drop);
  return db.url;
}

/** A database with no schema at all. */
async function bareTarget(): Promise<string> {
  const name = `cairn_migrate_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  drops.push(async () => {
    await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return withDatabase(adminUrl, name);
}

/** Rows in every table of the database's schema (schema_migrations aside), by table. */
async function rowCounts(url: string): Promise<Map<string, number>> {
  return admin(url, async (c) => {
    const { rows } = await c.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
         AND table_name <> 'schema_migrations'`,
    );
    const out = new Map<string, number>();
    for (const { table_name: t } of rows) {
      const n = await c.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${t}"`);
      out.set(t, Number(n.rows[0]?.n ?? 0));
    }
    return out;
  });
}

/** Tables holding more than the rows the migrations seed (default channels, postings stats). */
const SEEDED = seededRows(MIGRATIONS);
const nonEmpty = (counts: Map<string, number>): string[] =>
  [...counts].filter(([t, n]) => n > (SEEDED.get(t) ?? 0)).map(([t]) => t);

describe('cairn migrate-store', () => {
  it('copies every table, verifies it, and a core on PostgreSQL serves the data', async () => {
    const url = await bareTarget();
    const home = tempDir('cairn-migrate-home-');
    try {
      const run = await cairn(home.path, ['migrate-store', '--from', src().file, '--to', url]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^copied tasks: 3 rows$/m);
      expect(run.stdout).toMatch(/^copied room_posts: 3 rows$/m);
      expect(run.stdout).toMatch(/^copied task_comments: 1 row$/m);
      expect(run.stdout).toMatch(/^re-embed memory_vectors \(3 rows\): /m);
      expect(run.stdout).toMatch(/^skipped memory_fts \(3 rows\): FTS5/m);
      expect(run.stdout).toMatch(/^verified \d+ tables: row counts and content digests match$/m);
    } finally {
      home.cleanup();
    }
    await checkServedFromPostgres(url);
  });

  it('keeps rowids that other tables reference, and leaves vectors to be embedded again', async () => {
    const url = await target();
    // One row per INSERT: a reference to a row copied later (a document's successor) is then
    // checked only at the end of the transaction.
    const report = await migrateSqliteToPg({ from: src().file, to: url, batchRows: 1 });
    expect(report.ok).toBe(true);
    expect(report.verification.every((c) => c.ok)).toBe(true);
    const postings = report.verification.find((c) => c.table === 'memory_postings_docs');
    expect(postings?.target.rows).toBe(3);
    await admin(url, async (c) => {
      const joined = await c.query(
        `SELECT m.id FROM memory_postings_docs d JOIN memory_items m ON m.rowid = d.item_id`,
      );
      expect(joined.rows.map((r: { id: string }) => r.id).sort()).toEqual(
        [...src().memoryIds].sort(),
      );
      const vectors = await c.query('SELECT COUNT(*)::int AS n FROM memory_vectors');
      expect(vectors.rows[0]).toEqual({ n: 0 });
    });
    expect(report.reembed.map((t) => [t.table, t.rows])).toContainEqual(['memory_vectors', 3]);
    expect(report.reembed.find((t) => t.table === 'vault_vectors')?.rows).toBeGreaterThan(0);
  });

  it('refuses a target that holds rows, naming the table, and writes nothing', async () => {
    const url = await target();
    await admin(url, (c) =>
      c.query(
        "INSERT INTO tool_notes (id, caller, note, created_at) VALUES ('n1', 'ops', 'mine', 1)",
      ),
    );
    const err = await migrateSqliteToPg({ from: src().file, to: url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrateStoreError);
    expect((err as MigrateStoreError).code).toBe('target_not_empty');
    expect((err as Error).message).toContain('table tool_notes holds rows');
    expect(nonEmpty(await rowCounts(url))).toEqual(['tool_notes']);
  });

  it('a dry run (the CLI, --json) counts per table and writes nothing, not even the schema', async () => {
    const url = await bareTarget();
    const home = tempDir('cairn-migrate-home-');
    try {
      const run = await cairn(home.path, [
        'migrate-store',
        ...['--from', src().file, '--to', url, '--dry-run', '--json'],
      ]);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as MigrateStoreReport;
      expect(report.dryRun).toBe(true);
      expect(report.tables).toContainEqual({ table: 'tasks', rows: 3 });
      expect(report.tables).toContainEqual({ table: 'task_comments', rows: 1 });
      expect(report.skipped.map((t) => t.table)).toContain('memory_fts');
      expect(report.verification).toEqual([]);
      expect(report.targetHolds).toBeUndefined();
    } finally {
      home.cleanup();
    }
    expect((await rowCounts(url)).size).toBe(0);
  });

  it('copies one snapshot: a write to the file during the copy is neither copied nor a mismatch', async () => {
    const url = await target();
    const dir = tempDir('cairn-migrate-live-');
    const file = join(dir.path, 'cairn.db');
    copyFileSync(src().file, file);
    const writer = await createCore({
      dbPath: file,
      dbUrl: '',
      logger: silentLogger,
      embedder: null,
    });
    try {
      const writes: Promise<unknown>[] = [];
      const report = await migrateSqliteToPg({
        from: file,
        to: url,
        // After the board's tables, before tool_notes: a server still writing to the file.
        onTable: (table) => {
          if (table === 'tasks')
            writes.push(
              writer.store.run(
                "INSERT INTO tool_notes (id, caller, note, created_at) VALUES ('late', 'ops', 'after the snapshot', 1)",
              ),
            );
        },
      });
      await Promise.all(writes);
      expect(writes).toHaveLength(1);
      expect(report.ok).toBe(true);
      expect(await writer.store.get('SELECT id FROM tool_notes')).toEqual({ id: 'late' });
      expect((await rowCounts(url)).get('tool_notes')).toBe(0);
    } finally {
      await writer.close();
      dir.cleanup();
    }
  });

  it('a failure mid-copy rolls everything back: the target stays empty', async () => {
    const url = await target();
    // A constraint the copied rows break, on a table copied after the board's.
    await admin(url, (c) =>
      c.query('ALTER TABLE vault_fragments ADD CONSTRAINT migrate_trap CHECK (false) NOT VALID'),
    );
    const copied: string[] = [];
    const err = await migrateSqliteToPg({
      from: src().file,
      to: url,
      onTable: (table) => copied.push(table),
    }).catch((e: unknown) => e);
    expect(String(err)).toContain('migrate_trap');
    expect(copied).toContain('tasks');
    expect(copied).not.toContain('vault_fragments');
    expect(nonEmpty(await rowCounts(url))).toEqual([]);
    // Nothing was left half-done: without the trap the same target takes the copy.
    await admin(url, (c) => c.query('ALTER TABLE vault_fragments DROP CONSTRAINT migrate_trap'));
    expect((await migrateSqliteToPg({ from: src().file, to: url })).ok).toBe(true);
  });
});

/** Opens a core on the migrated database and checks the data through the services. */
async function checkServedFromPostgres(url: string): Promise<void> {
  const dir = tempDir('cairn-migrate-core-');
  const core = await createCore({
    dbUrl: url,
    dbPath: `${dir.path}/unused.db`,
    logger: silentLogger,
    embedder: null,
  });
  try {
    const tasks = await linkedClient(createTasksServer(core));
    const listed = await callOk<{ tasks: { id: string; title: string }[] }>(
      tasks,
      'list_tasks',
      {},
    );
    expect(listed.tasks.map((t) => t.id).sort()).toEqual(Object.values(src().tasks).sort());
    const claimed = await callOk<{ assigneeAgentId: string }>(tasks, 'claim_task', {
      taskId: src().tasks.todo,
      assigneeAgentId: 'bob',
    });
    expect(claimed.assigneeAgentId).toBe('bob');
    const got = await callOk<{ comments: { body: string }[] }>(tasks, 'get_task', {
      taskId: src().tasks.claimed,
    });
    expect(got.comments.map((c) => c.body)).toEqual(['started on the copy']);
    // Insertion sequences moved past the copied seqs: new rows sort after every copied one.
    const fresh = await core.board.createTask({ title: 'made on pg' });
    const note = await core.board.addComment({ taskId: fresh.id, body: 'made on pg' });
    for (const [table, id] of [
      ['tasks', fresh.id],
      ['task_comments', note.id],
    ] as const) {
      const seqs = await core.store.get<{ mine: number; copied: number }>(
        `SELECT (SELECT seq FROM ${table} WHERE id = ?) AS mine,
                (SELECT MAX(seq) FROM ${table} WHERE id <> ?) AS copied`,
        [id, id],
      );
      expect(seqs?.mine).toBeGreaterThan(seqs?.copied ?? Infinity);
    }
    // Room history keeps its sequence numbers, and the next post continues it.
    const page = await core.rooms.subscribe({
      roomId: ROOM,
      viewer: 'bob',
      sinceSeq: 0,
      limit: 10,
    });
    expect(page.posts.map((p) => p.seq)).toEqual([1, 2, 3]);
    const next = await core.rooms.post({ roomId: ROOM, authorAgentId: 'bob', text: 'on pg now' });
    expect(next.seq).toBe(src().posts + 1);
    const approvals = await core.broker.listApprovals();
    expect(approvals.map((a) => a.id)).toContain(src().approvalId);
    // Identity sequences moved past the copied ids: a new event gets a fresh id.
    const ids = await core.store.all<{ id: number }>('SELECT id FROM task_events ORDER BY id');
    expect(new Set(ids.map((r) => r.id)).size).toBe(ids.length);
    const before = await core.store.get<{ n: number }>('SELECT MAX(id) AS n FROM audit_log');
    await core.store.run(
      "INSERT INTO audit_log (at, tool, caller, step, outcome) VALUES (1, 'x', 'y', 'z', 'ok')",
    );
    const after = await core.store.get<{ n: number }>('SELECT MAX(id) AS n FROM audit_log');
    expect(after?.n).toBeGreaterThan(before?.n ?? Infinity);
  } finally {
    await core.close();
    dir.cleanup();
  }
}
