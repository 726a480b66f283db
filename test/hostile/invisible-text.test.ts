// Invisible and bidi control characters are stripped on every write path that stores text:
// each MCP tool (SDK clients over linked transports) and each REST write, on one service. The
// check reads every stored text column straight from the database, so a path that forgot the
// shared sanitiser (src/shared/text.ts) fails here whichever surface it sits behind.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import {
  createBackplaneServer,
  createMemoryServer,
  createTasksServer,
  createTeamChatServer,
} from '../../src/mcp/index.js';
import { firstInvisible } from '../../src/shared/index.js';
import { credentialsOf, OPERATOR, okText } from '../backplane/helpers.js';
import { callOk, linkedClient } from '../helpers.js';
import { httpSessions, type Running, TOKEN } from '../http/helpers.js';
import { secretCorpus } from '../memory/secrets.js';

/** Trojan-Source style text: an override, isolates, a zero-width space and a BOM. */
const SPOOF = '\uFEFFship\u202Eti\u202C \u2066now\u2069 ad\u200Bmin';
const SHOWN = 'shipti now admin';
/** Legitimate joiners that must survive: an emoji ZWJ sequence and Persian with a ZWNJ. */
const LEGIT = '👨\u200D👩\u200D👧 می‌خواهم';

const sessions = httpSessions();
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await sessions.closeAll();
});

const connect = async (server: Parameters<typeof linkedClient>[0]): Promise<Client> => {
  const client = await linkedClient(server);
  clients.push(client);
  return client;
};

/** Every stored text column that holds caller-written text. */
async function storedTexts(core: Core): Promise<string[]> {
  const q = (sql: string) => core.store.all<Record<string, string | null>>(sql);
  const rows = [
    ...(await q('SELECT title, description FROM tasks')),
    ...(await q('SELECT body FROM task_comments')),
    ...(await q('SELECT title, content, tags, name FROM memory_items')),
    ...(await q('SELECT text FROM room_posts')),
    ...(await q('SELECT payload FROM room_envelopes')),
    ...(await q('SELECT topic FROM channels')),
    ...(await q('SELECT excerpt FROM agent_inbox')),
  ];
  return rows.flatMap((r) => Object.values(r).filter((v): v is string => typeof v === 'string'));
}

/** Nothing stored holds a hidden character; `SHOWN` and `LEGIT` arrived `count` times at least. */
async function expectClean(core: Core, count: number): Promise<void> {
  const texts = await storedTexts(core);
  expect(texts.filter((t) => firstInvisible(t) !== null)).toEqual([]);
  const all = texts.join('\n');
  // Stored JSON (tags, payloads) escapes nothing printable, so plain substring counts hold.
  expect(all.split(SHOWN).length - 1).toBeGreaterThanOrEqual(count);
  expect(all.split(LEGIT).length - 1).toBeGreaterThanOrEqual(count);
}

const rest = (svc: Running, path: string, method: string, body: unknown) =>
  fetch(`${svc.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });

const text = `${SPOOF} ${LEGIT}`;

describe('invisible characters on every write path', () => {
  it('tasks tools: create_task, create_subtask, add_comment', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const tasks = await connect(createTasksServer(svc.core));
    const root = await callOk<{ id: string }>(tasks, 'create_task', {
      title: text,
      description: text,
    });
    await callOk(tasks, 'create_subtask', {
      parentTaskId: root.id,
      title: text,
      description: text,
    });
    await callOk(tasks, 'add_comment', { taskId: root.id, body: text });
    await expectClean(svc.core, 5);
    const got = await callOk<{ task: { title: string } }>(tasks, 'get_task', { taskId: root.id });
    expect(got.task.title).toBe(`${SHOWN} ${LEGIT}`);
  });

  it('a title or comment of nothing but invisible characters is refused, not stored blank', async () => {
    const svc = await sessions.start({}, { embedder: null });
    await expect(svc.core.board.createTask({ title: '\u200B\u202E' })).rejects.toThrow(
      /once invisible characters are removed/,
    );
    const task = await svc.core.board.createTask({ title: 'ok' });
    await expect(
      svc.core.board.addComment({ taskId: task.id, body: '\u2066\u2069' }),
    ).rejects.toThrow(/once invisible characters are removed/);
    await expect(
      svc.core.rooms.post({ roomId: 'team:t', authorAgentId: 'a', text: '\u200B' }),
    ).rejects.toThrow(/non-empty text/);
  });

  it('memory_save: a fact and a procedure (content, title, tags, procedureName)', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const memory = await connect(createMemoryServer(svc.core));
    await callOk(memory, 'memory_save', { content: text, title: text, tags: [text, '\u200B'] });
    await callOk(memory, 'memory_save', {
      content: `${text} v1`,
      procedureName: `deploy\u200B ${text}`,
      tags: [text],
    });
    await expectClean(svc.core, 5);
    const tags = await svc.core.store.all<{ tags: string }>('SELECT tags FROM memory_items');
    expect(tags.map((r) => JSON.parse(r.tags) as string[])).toEqual([
      [`${SHOWN} ${LEGIT}`],
      [`${SHOWN} ${LEGIT}`],
    ]);
  });

  it('a zero-width space cannot split a secret past the memory scrubber', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const memory = await connect(createMemoryServer(svc.core));
    const key = secretCorpus().find((c) => c.kind === 'github-token')?.secret ?? '';
    const split = `${key.slice(0, 12)}\u200B${key.slice(12)}`;
    await callOk(memory, 'memory_save', { content: `key ${split} here`, title: 'creds' });
    const rows = await svc.core.store.all<{ content: string }>('SELECT content FROM memory_items');
    expect(rows[0]?.content).not.toContain(key);
    expect(rows[0]?.content).not.toContain(key.slice(12));
  });

  it('teamchat tools: team_chat_post and team_delegate', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const bob = await connect(
      createTeamChatServer(svc.core, { roomTeamId: 't1', postAuthorAgentId: 'bob' }),
    );
    const ann = await connect(
      createTeamChatServer(svc.core, {
        roomTeamId: 't1',
        postAuthorAgentId: 'ann',
        delegate: true,
      }),
    );
    await callOk(bob, 'team_chat_post', { text });
    const delegated = await callOk<{ outcome: string }>(ann, 'team_delegate', {
      assignee: 'bob',
      task: text,
    });
    expect(delegated.outcome).toBe('task_created');
    // The post, and the delegated task's title and description.
    await expectClean(svc.core, 3);
  });

  it('backplane tools: send_message payloads, every string at any depth', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const op = await connect(createBackplaneServer(svc.core, { principal: OPERATOR }));
    credentialsOf(await okText(op, 'register_agent', { nick: 'w1', channels: ['#fleet'] }));
    await okText(op, 'send_message', { channel: '#fleet', type: 'text', payload: { text } });
    await okText(op, 'send_message', {
      channel: '#fleet',
      type: 'task.create',
      payload: { [`ti\u200Btle`]: text, nested: { list: [text] } },
    });
    const rows = await svc.core.store.all<{ payload: string }>(
      'SELECT payload FROM room_envelopes',
    );
    expect(JSON.parse(rows[1]?.payload ?? '{}')).toEqual({
      title: `${SHOWN} ${LEGIT}`,
      nested: { list: [`${SHOWN} ${LEGIT}`] },
    });
    await expectClean(svc.core, 4);
  });

  it('REST writes: task comments, room and channel posts, memory tags, topics, channels', async () => {
    const svc = await sessions.start({}, { embedder: null });
    const task = await svc.core.board.createTask({ title: 'plain' });
    const fact = await svc.core.memory.save({ content: 'c', title: 't', scope: {} });
    const id = fact.saved === 'fact' ? fact.fact.id : '';
    const calls: Array<[string, string, unknown]> = [
      [`/api/board/tasks/${task.id}/comments`, 'POST', { body: text }],
      ['/api/rooms/team%3At1/posts', 'POST', { text }],
      ['/api/rooms/%23general/posts', 'POST', { text }],
      [`/api/memory/items/${id}/tags`, 'POST', { tags: [text] }],
      ['/v1/channels', 'POST', { name: '#ops', topic: `${SHOWN} ${LEGIT}\u202E` }],
      ['/v1/channels/%23general/topic', 'PUT', { topic: text }],
      ['/v1/channels/%23general/messages', 'POST', { type: 'text', payload: { text } }],
    ];
    for (const [path, method, body] of calls) {
      const res = await rest(svc, path, method, body);
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
    }
    await expectClean(svc.core, 7);
  });
});
