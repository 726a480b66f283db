// The session and agent families of cairn-context through a real SDK client: start_session
// (provenance filled in, data overriding it, a duplicate refused), update (status ends a
// session for good), get_session and list_sessions (filters, honest empty answers),
// log_tool_call (files touched, failures, secrets scrubbed) and log_delegation (child created
// or linked, cycles refused), with refusals as tool errors naming their field.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, linkedClient, textOf } from '../helpers.js';
import { callContext, contextCore, makeProject } from './fixtures.js';

type Row = Record<string, unknown>;

/** Calls a tool expecting a refusal that is not invalid args; returns its text. */
async function refused(client: Client, name: string, args: Row): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError !== true) throw new Error(`${name} was not refused: ${JSON.stringify(r)}`);
  return textOf(r);
}

describe('cairn-context: the session and agent families', () => {
  let core: Core;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    const project = makeProject();
    const t = await contextCore(project, {
      USER: 'ann',
      CAIRN_MODEL_ID: 'test-model',
      CLAUDE_SESSION_ID: 'ide-1',
    });
    core = t.core;
    client = await linkedClient(createContextServer(core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  it('start_session records the call provenance where data does not say, and refuses a second start', async () => {
    const { data, meta } = await callContext<{ session: Row }>(client, 'start_session', {
      data: { title: 'fix the build', agent_type: 'worker' },
    });
    expect(data.session).toMatchObject({
      id: 'ide-1',
      status: 'active',
      agentType: 'worker',
      modelId: 'test-model',
      operatorId: 'ann',
      machineId: 'test-host',
      delegated: false,
      parentSessionId: null,
      endedAt: null,
      title: 'fix the build',
      counts: { toolCalls: 0, errors: 0, delegations: 0 },
    });
    expect(typeof data.session['startedAt']).toBe('string');
    expect(meta?.['cairn/provenance']).toMatchObject({
      session_id: 'ide-1',
      model_id: 'test-model',
    });
    const again = await refused(client, 'start_session', {});
    expect(again).toContain('session ide-1 already exists');
    const other = await callContext<{ session: Row }>(client, 'start_session', {
      session_id: 's-2',
      data: { model_id: 'other-model', project_id: 'acme/app' },
    });
    expect(other.data.session).toMatchObject({
      id: 's-2',
      modelId: 'other-model',
      projectId: 'acme/app',
    });
  });

  it('update changes status; an ended status sets ended_at and is final', async () => {
    await callContext(client, 'start_session', { session_id: 's-1' });
    const paused = await callContext<{ session: Row; changed: string[] }>(client, 'start_session', {
      action: 'update',
      session_id: 's-1',
      data: { status: 'paused', open_items: ['write docs'] },
    });
    expect(paused.data.changed).toEqual(['open_items', 'status']);
    expect(paused.data.session).toMatchObject({ status: 'paused', endedAt: null });
    const done = await callContext<{ session: Row }>(client, 'start_session', {
      action: 'update',
      session_id: 's-1',
      data: { status: 'completed', outcome: 'build green' },
    });
    expect(done.data.session['status']).toBe('completed');
    expect(typeof done.data.session['endedAt']).toBe('string');
    expect(done.data.session['data']).toMatchObject({
      outcome: 'build green',
      open_items: ['write docs'],
    });
    expect(
      await refused(client, 'start_session', {
        action: 'update',
        session_id: 's-1',
        data: { status: 'active' },
      }),
    ).toContain('session s-1 is completed: an ended session cannot become active');
    const same = await callContext<{ changed: string[] }>(client, 'start_session', {
      action: 'update',
      session_id: 's-1',
      data: { status: 'completed' },
    });
    expect(same.data.changed).toEqual([]);
  });

  it('refuses bad arguments as tool errors naming the field', async () => {
    expect(await callInvalid(client, 'start_session', { action: 'update', data: {} })).toMatch(
      /^invalid args: session_id: /,
    );
    expect(await callInvalid(client, 'start_session', { data: { nope: 1 } })).toMatch(/data\.nope/);
    expect(await callInvalid(client, 'start_session', { session_id: 'a\u0007b' })).toMatch(
      /session_id: session_id must not contain control characters/,
    );
    expect(await callInvalid(client, 'list_sessions', { status: 'done' })).toMatch(/status/);
    expect(await callInvalid(client, 'list_sessions', { limit: 0 })).toMatch(/limit/);
    expect(await callInvalid(client, 'get_session', {})).toMatch(/session_id/);
    expect(await callInvalid(client, 'log_tool_call', { session_id: 's' })).toMatch(/data/);
    expect(
      await callInvalid(client, 'log_tool_call', { session_id: 's', data: { args: {} } }),
    ).toMatch(/data\.tool_name/);
    expect(await refused(client, 'get_session', { session_id: 'ghost' })).toBe(
      'session not found: ghost (start it with start_session)',
    );
    expect(
      await refused(client, 'log_tool_call', { session_id: 'ghost', data: { tool_name: 'x' } }),
    ).toContain('session not found: ghost');
  });

  it('list_sessions filters and says whether nothing is recorded or the filters removed everything', async () => {
    const empty = await callContext<{ status: string; sessions: Row[] }>(
      client,
      'list_sessions',
      {},
    );
    expect(empty.data).toMatchObject({ status: 'empty', sessions: [], stored: 0 });
    await callContext(client, 'start_session', {
      session_id: 'a',
      agent_type: 'worker',
      project_id: 'p1',
    });
    await callContext(client, 'start_session', {
      session_id: 'b',
      agent_type: 'reviewer',
      project_id: 'p1',
      worktree_id: 'wt2',
    });
    await callContext(client, 'start_session', {
      session_id: 'c',
      agent_type: 'worker',
      project_id: 'p2',
    });
    const ids = async (args: Row) =>
      (await callContext<{ sessions: Row[] }>(client, 'list_sessions', args)).data.sessions
        .map((s) => s['id'])
        .sort();
    expect(await ids({})).toEqual(['a', 'b', 'c']);
    expect(await ids({ agent_type: 'worker' })).toEqual(['a', 'c']);
    expect(await ids({ project_id: 'p1', worktree_id: 'wt2' })).toEqual(['b']);
    expect(await ids({ status: 'active', project_id: 'p2' })).toEqual(['c']);
    const none = await callContext<Row>(client, 'list_sessions', { status: 'failed' });
    expect(none.data).toMatchObject({ status: 'filtered_out', matching: 0, stored: 3 });
    expect(none.text).toBe('3 sessions recorded, none matches the filters.');
    const one = await callContext<Row>(client, 'list_sessions', { limit: 1 });
    expect(one.data).toMatchObject({ matching: 3, truncated: true });
  });

  it('log_tool_call counts calls and errors, finds the files touched and scrubs secrets', async () => {
    await callContext(client, 'start_session', { session_id: 's' });
    const first = await callContext<{ toolCall: Row; session: Row }>(client, 'log_tool_call', {
      session_id: 's',
      data: {
        tool_name: 'edit_file',
        args: { file_path: 'src/a.ts', edits: [{ path: 'src/b.ts' }], repo_path: '/r' },
      },
    });
    expect(first.data.toolCall).toMatchObject({
      seq: 1,
      status: 'ok',
      files: ['src/a.ts', 'src/b.ts'],
    });
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const second = await callContext<{ toolCall: Row; session: Row }>(client, 'log_tool_call', {
      session_id: 's',
      data: {
        tool_name: 'bash',
        args: { command: `curl -H "token: ${secret}"` },
        error: 'exit 1',
        files: ['build.log'],
      },
    });
    expect(second.data.toolCall).toMatchObject({
      seq: 2,
      status: 'error',
      error: 'exit 1',
      files: ['build.log'],
    });
    expect(JSON.stringify(second.data.toolCall)).not.toContain(secret);
    expect(second.data.session['counts']).toEqual({ toolCalls: 2, errors: 1, delegations: 0 });
    const detail = await callContext<{ toolCalls: Row[] }>(client, 'get_session', {
      session_id: 's',
    });
    expect(detail.data.toolCalls.map((c) => [c['seq'], c['toolName'], c['status']])).toEqual([
      [1, 'edit_file', 'ok'],
      [2, 'bash', 'error'],
    ]);
    expect(detail.text).toContain('2. bash [error] — exit 1 files: build.log');
  });

  it('log_delegation creates the child with parent_session_id, links an existing one, and refuses cycles', async () => {
    await callContext(client, 'start_session', { session_id: 'p', project_id: 'acme/app' });
    const made = await callContext<Row>(client, 'log_delegation', {
      session_id: 'p',
      data: { child_session_id: 'c1', agent_type: 'reviewer', task: 'review the diff' },
    });
    expect(made.data).toMatchObject({ childCreated: true, updated: false });
    expect(made.data['child']).toMatchObject({
      id: 'c1',
      parentSessionId: 'p',
      delegated: true,
      projectId: 'acme/app',
      agentType: 'reviewer',
      status: 'active',
      provenance: { delegated: true, parent_session_id: 'p', session_id: 'c1' },
    });
    const done = await callContext<Row>(client, 'log_delegation', {
      session_id: 'p',
      data: { child_session_id: 'c1', status: 'completed', result: 'two nits' },
    });
    expect(done.data).toMatchObject({ childCreated: false, updated: true });
    expect(done.data['delegation']).toMatchObject({
      seq: 1,
      status: 'completed',
      result: 'two nits',
    });
    expect(done.data['child']).toMatchObject({ status: 'completed' });
    await callContext(client, 'start_session', { session_id: 'lone' });
    const linked = await callContext<Row>(client, 'log_delegation', {
      session_id: 'c1',
      data: { child_session_id: 'lone' },
    });
    expect(linked.data).toMatchObject({
      childCreated: false,
      child: { parentSessionId: 'c1', delegated: true },
    });
    expect(
      await refused(client, 'log_delegation', {
        session_id: 'lone',
        data: { child_session_id: 'p' },
      }),
    ).toBe('delegation cycle refused: lone → p → c1 → lone');
    expect(
      await callInvalid(client, 'log_delegation', {
        session_id: 'p',
        data: { child_session_id: 'p' },
      }),
    ).toMatch(/data\.child_session_id/);
    const detail = await callContext<{ delegations: Row[]; children: Row[] }>(
      client,
      'get_session',
      {
        session_id: 'p',
      },
    );
    expect(detail.data.children.map((c) => c['id'])).toEqual(['c1']);
    expect(detail.data.delegations).toHaveLength(1);
  });
});
