// team_delegate: listed only on delegate=1 sessions, validated with the spec's text, and each
// outcome (task created, unknown name dropped, self dropped) recorded in the audit log.
import { afterEach, describe, expect, it } from 'vitest';

import { listAudit } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { callErr, callOk } from '../helpers.js';
import { teamchatSessions } from './helpers.js';

interface Ack {
  acknowledged: true;
  assignee: string;
  outcome: string;
  taskId?: string;
}

const LEAD = { roomTeamId: 't1', postAuthorAgentId: 'lead', delegate: true };

describe('team_delegate', () => {
  const sessions = teamchatSessions();
  afterEach(() => sessions.closeAll());

  const audits = async (core: Core) =>
    (await listAudit(core.store, { tool: 'team_delegate' })).entries.reverse();

  it('is absent without the delegate binding and present with it', async () => {
    const core = await sessions.open();
    const names = async (b: Parameters<typeof sessions.connect>[1]) =>
      (await (await sessions.connect(core, b)).listTools()).tools.map((t) => t.name).sort();
    expect(await names({})).not.toContain('team_delegate');
    expect(await names({ roomTeamId: 't1', postAuthorAgentId: 'lead' })).not.toContain(
      'team_delegate',
    );
    expect(await names({ delegate: true })).not.toContain('team_delegate');
    expect(await names(LEAD)).toEqual(['team_chat_post', 'team_chat_subscribe', 'team_delegate']);
  });

  it('creates a board task assigned to a teammate the roster knows, and audits it', async () => {
    const core = await sessions.open();
    const bob = await sessions.connect(core, { roomTeamId: 't1', postAuthorAgentId: 'bob' });
    await callOk(bob, 'team_chat_post', { text: 'bob here' });
    const lead = await sessions.connect(core, LEAD);
    const ack = await callOk<Ack>(lead, 'team_delegate', {
      assignee: 'bob',
      task: 'Write the release notes\nCover every merged PR since v0.1.',
    });
    expect(ack).toMatchObject({ acknowledged: true, assignee: 'bob', outcome: 'task_created' });
    const detail = await core.board.getTask(ack.taskId ?? '');
    expect(detail.task).toMatchObject({
      title: 'Write the release notes',
      teamId: 't1',
      status: 'in_progress',
      assigneeAgentId: 'bob',
    });
    expect(detail.task.description).toContain('Cover every merged PR');
    expect(detail.comments[0]?.body).toBe('Delegated by lead to bob (team_delegate).');
    const [row] = await audits(core);
    expect(row).toMatchObject({
      tool: 'team_delegate',
      caller: 'lead',
      step: 'delegate',
      outcome: 'task_created',
      detail: { teamId: 't1', assignee: 'bob', taskId: ack.taskId },
    });
  });

  it('knows board assignees of the team as teammates too', async () => {
    const core = await sessions.open();
    const t = await core.board.createTask({ title: 'existing', teamId: 't1' });
    await core.board.claimTask({ taskId: t.id, assigneeAgentId: 'cara' });
    expect(await core.rooms.roster('t1')).toEqual(['cara']);
    const lead = await sessions.connect(core, LEAD);
    const ack = await callOk<Ack>(lead, 'team_delegate', { assignee: 'cara', task: 'review' });
    expect(ack.outcome).toBe('task_created');
  });

  it('drops an unknown name and the caller itself, auditing each, with no board write', async () => {
    const core = await sessions.open();
    const other = await sessions.connect(core, { roomTeamId: 't2', postAuthorAgentId: 'zed' });
    await callOk(other, 'team_chat_post', { text: 'zed is on another team' });
    const lead = await sessions.connect(core, LEAD);
    await callOk(lead, 'team_chat_post', { text: 'lead is on the roster' });
    const unknown = await callOk<Ack>(lead, 'team_delegate', { assignee: 'zed', task: 'x' });
    expect(unknown).toEqual({ acknowledged: true, assignee: 'zed', outcome: 'dropped_unknown' });
    const self = await callOk<Ack>(lead, 'team_delegate', { assignee: 'lead', task: 'x' });
    expect(self).toEqual({ acknowledged: true, assignee: 'lead', outcome: 'dropped_self' });
    expect(await core.board.listTasks({})).toEqual([]);
    expect((await audits(core)).map((r) => [r.caller, r.outcome])).toEqual([
      ['lead', 'dropped_unknown'],
      ['lead', 'dropped_self'],
    ]);
  });

  it('refuses a missing or empty field with the spec’d tool-error', async () => {
    const core = await sessions.open();
    const lead = await sessions.connect(core, LEAD);
    const text = 'team_delegate requires both an assignee (teammate name) and a task';
    for (const args of [
      {},
      { assignee: 'bob' },
      { task: 'x' },
      { assignee: ' ', task: 'x' },
      { assignee: 'bob', task: '' },
    ]) {
      expect((await callErr(lead, 'team_delegate', args)).text).toBe(text);
    }
    expect(await audits(core)).toEqual([]);
  });
});
