// tools/list advertises the spec's non-optional fields in `required` (team_delegate's assignee
// and task included), while a missing one still gets the spec's tool-error, not `invalid args`.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import { callErr } from '../helpers.js';
import { teamchatSessions } from './helpers.js';

const LEAD = { roomTeamId: 't1', postAuthorAgentId: 'lead', delegate: true };
const DELEGATE_FIELDS = 'team_delegate requires both an assignee (teammate name) and a task';

async function inputSchemas(client: Client): Promise<Record<string, Record<string, unknown>>> {
  const { tools } = await client.listTools();
  return Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
}

describe('teamchat required fields', () => {
  const sessions = teamchatSessions();
  afterEach(() => sessions.closeAll());

  it('lists team_delegate { assignee, task } and team_chat_post { text } as required', async () => {
    const schemas = await inputSchemas(await sessions.connect(await sessions.open(), LEAD));
    expect(schemas['team_delegate']).toEqual({
      type: 'object',
      properties: {
        assignee: { type: 'string', maxLength: 200 },
        task: { type: 'string', maxLength: 32_768 },
      },
      required: ['assignee', 'task'],
    });
    expect(schemas['team_chat_post']?.['required']).toEqual(['text']);
    expect(schemas['team_chat_subscribe']?.['required']).toBeUndefined();
    expect(JSON.stringify(schemas)).not.toMatch(/"required":(true|false)/);
  });

  it('still answers a missing assignee or task with the spec’s tool-error', async () => {
    const lead = await sessions.connect(await sessions.open(), LEAD);
    for (const args of [{}, { assignee: 'bob' }, { task: 'write the notes' }]) {
      expect((await callErr(lead, 'team_delegate', args)).text).toBe(DELEGATE_FIELDS);
    }
  });
});
