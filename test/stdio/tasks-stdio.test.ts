// The tasks server over stdio: the real bin spawned as a child process, driven by an SDK
// client and, for the wire checks, by hand (raw JSON-RPC lines on stdin, stdout parsed line by
// line). Each test gets a fresh database and CAIRN_HOME; every child is killed afterwards.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import {
  BIN,
  call,
  okData,
  pollUntil,
  spawnTasks,
  type TasksProcess,
} from '../concurrency/spawn.js';
import { backendEnv, backendFor, ROOT, silentLogger, tempDir, type TempDir } from '../helpers.js';

const ALL_TOOLS = [
  'add_comment',
  'assign_task',
  'block_task',
  'claim_next_ready',
  'claim_task',
  'create_subtask',
  'create_task',
  'get_task',
  'link_task',
  'list_tasks',
  'release_task',
  'renew_claim',
  'unblock_task',
  'update_task_status',
];

/** The database standing in for the file `db` (postgres project), else '' (the file). */
const dbUrlOf = (db: string): string => backendEnv(db)['CAIRN_DB_URL'] ?? '';

describe('tasks server over stdio', () => {
  let dir: TempDir;
  let db: string;
  let home: string;
  const procs: TasksProcess[] = [];
  const raw: ChildProcessWithoutNullStreams[] = [];

  let dropDb: () => Promise<void>;

  beforeEach(async () => {
    dir = tempDir('cairn-stdio-');
    db = join(dir.path, 'cairn.db');
    home = join(dir.path, 'home');
    // On the postgres project the processes share a fresh database standing in for the file.
    dropDb = await backendFor(db);
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    for (const child of raw.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    await dropDb();
    dir.cleanup();
  });

  const start = async (args: string[] = []): Promise<TasksProcess> => {
    const p = await spawnTasks({ db, home, args });
    procs.push(p);
    return p;
  };

  it('initializes as cairn-tasks and lists the 14 tools', async () => {
    const { client } = await start();
    expect(client.getServerVersion()?.name).toBe('cairn-tasks');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  }, 120_000);

  it('--read-only serves only list_tasks and get_task', async () => {
    const { client } = await start(['--read-only']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_task', 'list_tasks']);
    await expect(
      client.callTool({ name: 'create_task', arguments: { title: 'x' } }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    expect(await call(client, 'list_tasks', {})).toEqual({ kind: 'ok', data: { tasks: [] } });
  }, 120_000);

  it('create → claim → update → get over stdio', async () => {
    const { client } = await start();
    const created = await call(client, 'create_task', { title: 'ship it', priority: 3 });
    expect(created).toMatchObject({ kind: 'ok', data: { status: 'todo', priority: 3 } });
    const id = okData<{ id: string }>(created).id;

    expect(
      await call(client, 'claim_task', { taskId: id, assigneeAgentId: 'agent-1' }),
    ).toMatchObject({
      kind: 'ok',
      data: { id, status: 'in_progress', assigneeAgentId: 'agent-1' },
    });
    expect(await call(client, 'update_task_status', { taskId: id, status: 'done' })).toMatchObject({
      kind: 'ok',
      data: { id, status: 'done' },
    });
    expect(
      await call(client, 'add_comment', { taskId: id, body: 'shipped', authorAgentId: 'agent-1' }),
    ).toMatchObject({ kind: 'ok' });

    const detail = await call(client, 'get_task', { taskId: id });
    expect(detail).toMatchObject({
      kind: 'ok',
      data: {
        task: { id, title: 'ship it', status: 'done', assigneeAgentId: 'agent-1' },
        comments: [{ body: 'shipped', authorType: 'agent', authorAgentId: 'agent-1' }],
        ancestors: [],
      },
    });
  }, 120_000);

  it("records the unbound session's client and transport in the history", async () => {
    const p = await start();
    const id = okData<{ id: string }>(await call(p.client, 'create_task', { title: 'origin' })).id;
    await call(p.client, 'claim_task', { taskId: id, assigneeAgentId: 'agent-1' });
    await call(p.client, 'update_task_status', { taskId: id, status: 'in_review' });
    await p.close();
    const core = await createCore({ dbPath: db, logger: silentLogger, dbUrl: dbUrlOf(db) });
    try {
      const history = await core.board.history(id);
      expect(history.map((e) => [e.toStatus, e.actor, e.actorClient, e.actorVia])).toEqual([
        ['todo', null, 'cairn-concurrency', 'stdio'],
        ['in_progress', 'agent-1', 'cairn-concurrency', 'stdio'],
        ['in_review', null, 'cairn-concurrency', 'stdio'],
      ]);
    } finally {
      await core.close();
    }
  }, 120_000);

  it("returns the spec'd tool-error texts over stdio", async () => {
    const { client } = await start();
    expect(await call(client, 'get_task', { taskId: 'no-such-task' })).toEqual({
      kind: 'tool-error',
      text: 'not found: no-such-task',
      meta: undefined,
    });
    expect(await call(client, 'create_subtask', { parentTaskId: 'ghost', title: 'x' })).toEqual({
      kind: 'tool-error',
      text: 'parent not found: ghost',
      meta: { denied: { reason: 'parent_not_found' } },
    });
    const created = await call(client, 'create_task', { title: 'one winner' });
    const id = okData<{ id: string }>(created).id;
    await call(client, 'claim_task', { taskId: id, assigneeAgentId: 'a' });
    const lost = await call(client, 'claim_task', { taskId: id, assigneeAgentId: 'b' });
    expect(lost).toMatchObject({ kind: 'tool-error' });
    expect((lost as { text: string }).text).toMatch(/^conflict: .*assigned to a.*do not retry$/);
  }, 120_000);

  it('answers invalid arguments with the tool error invalid args naming the field', async () => {
    const { client } = await start();
    const denied = { denied: { reason: 'invalid_args' } };
    expect(await call(client, 'claim_task', { taskId: '', assigneeAgentId: 'a' })).toEqual({
      kind: 'tool-error',
      text: 'invalid args: taskId: taskId must be a non-empty string',
      meta: denied,
    });
    expect(await call(client, 'create_task', { title: 'y', parentTaskId: '' })).toMatchObject({
      kind: 'tool-error',
      text: expect.stringMatching(/^invalid args: parentTaskId: /) as unknown,
      meta: denied,
    });
  }, 120_000);

  it('writes nothing but JSON-RPC lines to stdout and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, '--db', db], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        CAIRN_HOME: home,
        CAIRN_LOG_LEVEL: 'debug',
        ...backendEnv(db),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    raw.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    const send = (msg: object): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
    const lines = (): string[] => stdout.split('\n').filter((l) => l !== '');
    const responded = (id: number) => async (): Promise<true | undefined> =>
      lines().some((l) => l.includes(`"id":${id}`)) ? true : undefined;

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw-test', version: '0.0.0' },
      },
    });
    await pollUntil('initialize response', 60_000, responded(1), 25);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'create_task', arguments: { title: 'raw' } },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'get_task', arguments: { taskId: 'missing' } },
    });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'claim_task' } });
    for (const id of [2, 3, 4, 5]) await pollUntil(`response ${id}`, 60_000, responded(id), 25);

    child.stdin.end();
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000)),
    ]);
    expect(code, `stderr:\n${stderr}`).toBe(0);

    const messages = lines().map((line) => {
      expect(() => JSON.parse(line) as unknown, `non-JSON stdout line: ${line}`).not.toThrow();
      return JSON.parse(line) as {
        jsonrpc: string;
        id?: number;
        result?: unknown;
        error?: unknown;
      };
    });
    for (const m of messages) expect(m.jsonrpc).toBe('2.0');
    // Responses may arrive in any order; each request gets exactly one.
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(byId.get(1)?.result).toMatchObject({ serverInfo: { name: 'cairn-tasks' } });
    expect((byId.get(2)?.result as { tools: unknown[] }).tools).toHaveLength(14);
    expect(byId.get(3)?.result).toMatchObject({ structuredContent: { title: 'raw' } });
    expect(byId.get(4)?.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'not found: missing' }],
    });
    expect(byId.get(5)?.result).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/^invalid args: taskId: /) as unknown },
      ],
      _meta: { denied: { reason: 'invalid_args' } },
    });
    // A clean shutdown closes the database: the write-ahead log is folded back and removed.
    const wal = `${db}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
  }, 120_000);
});
