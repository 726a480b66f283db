// Hostile input for every tasks tool through a real SDK client: wrong types, missing fields,
// empty and oversized strings → the tool error `invalid args` naming the field (null only for a
// required field: for an optional one it means "not given"), unknown ids → not found, unknown
// tool → protocol error; and nothing is written on any refusal.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Task } from '../../src/board/index.js';
import type { Core } from '../../src/core/index.js';
import { callErr, callInvalid, callOk, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

type Kind = 'id' | 'title' | 'text' | 'body' | 'status' | 'priority' | 'bool' | 'authorType';

const BAD: Record<Kind, unknown[]> = {
  id: [42, '', ' \t\n ', 'x'.repeat(201), null, ['a'], {}, true],
  title: [42, '', '   ', 'x'.repeat(1001), null, { text: 'x' }],
  text: [42, 'x'.repeat(65_537), null, ['x']],
  body: [42, '', 'x'.repeat(65_537), null],
  status: ['nope', 'TODO', 'in-progress', 3, ''],
  priority: [1.5, '5', 2_000_000, -2_000_000, null, true],
  bool: ['true', 1, null, 'false'],
  authorType: ['admin', 'AGENT', 1, ''],
};

interface ToolCase {
  valid(a: Task, b: Task): Record<string, unknown>;
  /** field → [kind, required] */
  fields: Record<string, [Kind, boolean]>;
}

const TOOLS: Record<string, ToolCase> = {
  list_tasks: {
    valid: () => ({ teamId: 't', status: 'todo', ready: true }),
    fields: { teamId: ['id', false], status: ['status', false], ready: ['bool', false] },
  },
  get_task: { valid: (a) => ({ taskId: a.id }), fields: { taskId: ['id', true] } },
  create_task: {
    valid: (a) => ({
      title: 't',
      description: 'd',
      status: 'todo',
      priority: 1,
      teamId: 't',
      parentTaskId: a.id,
      assigneeRuntime: 'r',
    }),
    fields: {
      title: ['title', true],
      description: ['text', false],
      status: ['status', false],
      priority: ['priority', false],
      teamId: ['id', false],
      parentTaskId: ['id', false],
      assigneeRuntime: ['id', false],
    },
  },
  create_subtask: {
    valid: (a) => ({ parentTaskId: a.id, title: 't', description: 'd' }),
    fields: { parentTaskId: ['id', true], title: ['title', true], description: ['text', false] },
  },
  ...Object.fromEntries(
    ['claim_task', 'assign_task'].map((name) => [
      name,
      {
        valid: (a: Task) => ({ taskId: a.id, assigneeAgentId: 'a', assigneeRuntime: 'r' }),
        fields: {
          taskId: ['id', true],
          assigneeAgentId: ['id', true],
          assigneeRuntime: ['id', false],
        },
      } satisfies ToolCase,
    ]),
  ),
  ...Object.fromEntries(
    ['release_task', 'block_task', 'unblock_task'].map((name) => [
      name,
      {
        valid: (a: Task) => ({ taskId: a.id }),
        fields: { taskId: ['id', true] },
      } satisfies ToolCase,
    ]),
  ),
  update_task_status: {
    valid: (a) => ({ taskId: a.id, status: 'blocked' }),
    fields: { taskId: ['id', true], status: ['status', true] },
  },
  add_comment: {
    valid: (a) => ({ taskId: a.id, body: 'b', authorAgentId: 'a', authorType: 'user' }),
    fields: {
      taskId: ['id', true],
      body: ['body', true],
      authorAgentId: ['id', false],
      authorType: ['authorType', false],
    },
  },
  link_task: {
    valid: (a, b) => ({ taskId: a.id, dependsOnTaskId: b.id }),
    fields: { taskId: ['id', true], dependsOnTaskId: ['id', true] },
  },
  claim_next_ready: {
    valid: () => ({ assigneeAgentId: 'a', teamId: 't', assigneeRuntime: 'r' }),
    fields: {
      assigneeAgentId: ['id', true],
      teamId: ['id', false],
      assigneeRuntime: ['id', false],
    },
  },
  renew_claim: {
    valid: (a) => ({ taskId: a.id, assigneeAgentId: 'a' }),
    fields: { taskId: ['id', true], assigneeAgentId: ['id', true] },
  },
};

/** Every row of every board table, for before/after comparison. */
async function dump(core: Core): Promise<unknown> {
  const all = (table: string) => core.store.all(`SELECT * FROM ${table} ORDER BY rowid`);
  return {
    tasks: await all('tasks'),
    comments: await all('task_comments'),
    deps: await all('task_dependencies'),
  };
}

async function seeded() {
  const session = await sessions.open();
  const a = await callOk<Task>(session.client, 'create_task', { title: 'a', teamId: 't' });
  const b = await callOk<Task>(session.client, 'create_task', { title: 'b', teamId: 't' });
  return { ...session, a, b };
}

describe('invalid arguments', () => {
  it('covers all 14 tools', () => {
    expect(Object.keys(TOOLS)).toHaveLength(14);
  });

  for (const [tool, spec] of Object.entries(TOOLS)) {
    it(`${tool}: rejects bad, missing and oversized fields with invalid args and writes nothing`, async () => {
      const { client, core, a, b } = await seeded();
      const before = await dump(core);
      for (const [field, [kind, required]] of Object.entries(spec.fields)) {
        const bads = BAD[kind].filter((bad) => required || bad !== null);
        const attempts: Record<string, unknown>[] = bads.map((bad) => ({
          ...spec.valid(a, b),
          [field]: bad,
        }));
        if (required) {
          const missing = spec.valid(a, b);
          delete missing[field];
          attempts.push(missing);
        }
        for (const args of attempts) {
          const message = await callInvalid(client, tool, args);
          expect(message, `${tool} ${JSON.stringify(args).slice(0, 120)}`).toContain(
            'invalid args: ',
          );
          expect(message, `${tool}.${field}`).toContain(`${field}: `);
        }
      }
      expect(await dump(core)).toEqual(before);
    });
  }

  it('accepts strings exactly at the limits', async () => {
    const { client, a } = await seeded();
    const title = 't'.repeat(1000);
    const description = 'd'.repeat(65_536);
    const task = await callOk<Task>(client, 'create_task', { title, description });
    expect([task.title.length, task.description.length]).toEqual([1000, 65_536]);
    await callOk(client, 'add_comment', { taskId: a.id, body: 'b'.repeat(65_536) });
    await callOk(client, 'claim_task', { taskId: a.id, assigneeAgentId: 'x'.repeat(200) });
  });

  it('measures the 64 KiB text cap in UTF-8 bytes, not characters', async () => {
    const { client, core } = await seeded();
    const before = await dump(core);
    // 16,385 four-byte characters: under 64 Ki characters, over 64 KiB.
    const description = '😀'.repeat(16_385);
    const message = await callInvalid(client, 'create_task', { title: 't', description });
    expect(message).toContain('description');
    expect(message).toContain('64 KiB');
    expect(await dump(core)).toEqual(before);
  });

  it('ignores fields the schema does not know (no id, assignee or deletion injection)', async () => {
    const { client } = await seeded();
    const task = await callOk<Task>(client, 'create_task', {
      title: 'sneaky',
      id: 'chosen-id',
      assigneeAgentId: 'mallory',
      leaseExpiresAt: '2100-01-01T00:00:00.000Z',
      deleted_at: 1,
      depth: -5,
    });
    expect(task.id).not.toBe('chosen-id');
    expect(task).toMatchObject({ assigneeAgentId: null, leaseExpiresAt: null, depth: 0 });
    const { tasks } = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {});
    expect(tasks.map((t) => t.title)).toContain('sneaky');
  });

  it('rejects an unknown tool name as a protocol error', async () => {
    const { client, core } = await seeded();
    const before = await dump(core);
    for (const name of ['delete_task', 'LIST_TASKS', 'list_tasks ', '']) {
      const call = client.callTool({ name, arguments: {} });
      await expect(call).rejects.toBeInstanceOf(McpError);
      await expect(client.callTool({ name, arguments: {} })).rejects.toThrow('unknown tool');
    }
    expect(await dump(core)).toEqual(before);
  });
});

describe('unknown ids', () => {
  const GHOST = "ghost'; DELETE FROM tasks;--";
  const cases: [string, (a: Task) => Record<string, unknown>, string][] = [
    ['get_task', () => ({ taskId: GHOST }), `not found: ${GHOST}`],
    ['claim_task', () => ({ taskId: GHOST, assigneeAgentId: 'a' }), `not found: ${GHOST}`],
    ['assign_task', () => ({ taskId: GHOST, assigneeAgentId: 'a' }), `not found: ${GHOST}`],
    ['release_task', () => ({ taskId: GHOST }), `not found: ${GHOST}`],
    ['update_task_status', () => ({ taskId: GHOST, status: 'done' }), `not found: ${GHOST}`],
    ['block_task', () => ({ taskId: GHOST }), `not found: ${GHOST}`],
    ['unblock_task', () => ({ taskId: GHOST }), `not found: ${GHOST}`],
    ['add_comment', () => ({ taskId: GHOST, body: 'hi' }), `not found: ${GHOST}`],
    ['link_task', (a) => ({ taskId: GHOST, dependsOnTaskId: a.id }), `not found: ${GHOST}`],
    ['link_task', (a) => ({ taskId: a.id, dependsOnTaskId: GHOST }), `not found: ${GHOST}`],
    ['renew_claim', () => ({ taskId: GHOST, assigneeAgentId: 'a' }), `not found: ${GHOST}`],
    ['create_subtask', () => ({ parentTaskId: GHOST, title: 't' }), `parent not found: ${GHOST}`],
    ['create_task', () => ({ parentTaskId: GHOST, title: 't' }), `parent not found: ${GHOST}`],
  ];

  it('answers each tool with the spec text as a tool-error and writes nothing', async () => {
    const { client, core, a } = await seeded();
    const before = await dump(core);
    for (const [tool, args, text] of cases) {
      const err = await callErr(client, tool, args(a));
      expect({ tool, text: err.text }).toEqual({ tool, text });
    }
    expect(await dump(core)).toEqual(before);
    const { tasks } = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {});
    expect(tasks).toHaveLength(2);
  });
});
