// One timestamp format in tool results: every MCP server's results (tasks, memory, teamchat,
// tools, backplane), text and structured content, carry times as ISO 8601, never epoch ms.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import { MCP_SERVERS } from '../src/mcp/index.js';
import { linkedClient, tempCore } from './helpers.js';
import { nonIsoTimes, timeFieldCount } from './timestamps.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Calls a tool and returns its structured content and its text parsed as JSON, when it is. */
async function answers(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  const texts = (r.content as Array<{ text: string }>).map((c) => {
    try {
      return JSON.parse(c.text) as unknown;
    } catch {
      return c.text;
    }
  });
  return { structured: r.structuredContent, texts };
}

describe('timestamps in tool results', () => {
  it('is ISO 8601 on every server', async () => {
    const t = await tempCore({ embedder: null });
    closers.push(t.close);
    const connect = (name: keyof typeof MCP_SERVERS, binding = {}) =>
      linkedClient(MCP_SERVERS[name].create(t.core, binding));
    const tasks = await connect('tasks');
    const memory = await connect('memory');
    const chat = await connect('teamchat');
    const tools = await connect('tools');
    const backplane = await connect('backplane');
    const { structured: created } = await answers(tasks, 'create_task', { title: 'a' });
    const taskId = (created as { id: string }).id;
    await answers(tasks, 'add_comment', { taskId, body: 'hi', authorAgentId: 'w1' });
    const { structured: saved } = await answers(memory, 'memory_save', {
      procedureName: 'deploy',
      content: 'make deploy',
    });
    const id = (saved as { procedure: { id: string } }).procedure.id;
    await answers(memory, 'memory_save', { procedureName: 'deploy', content: 'make ship' });
    await answers(chat, 'team_chat_post', { teamId: 't1', authorAgentId: 'w1', text: 'hi' });
    await answers(backplane, 'send_message', { channel: '#general', type: 'agent.hello' });
    const results = {
      get_task: await answers(tasks, 'get_task', { taskId }),
      list_tasks: await answers(tasks, 'list_tasks', {}),
      memory_get: await answers(memory, 'memory_get', { id }),
      memory_browse: await answers(memory, 'memory_browse', {}),
      note: await answers(tools, 'note', { note: 'remember' }),
      get_history: await answers(backplane, 'get_history', { channel: '#general' }),
    };
    for (const [tool, r] of Object.entries(results)) {
      expect(nonIsoTimes(r), tool).toEqual([]);
      expect(timeFieldCount(r.structured), tool).toBeGreaterThan(0);
    }
    const sub = await answers(chat, 'team_chat_subscribe', { teamId: 't1', authorAgentId: 'w2' });
    expect(nonIsoTimes(sub)).toEqual([]);
  });
});
