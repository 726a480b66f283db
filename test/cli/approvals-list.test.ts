// `cairn approvals list` as a second OS process while MCP calls wait: each line names the board
// task its call works for (first 8 characters, as the dashboard shows it) or `-` for none, in
// its own column between the tool and the caller.
import { afterEach, describe, expect, it } from 'vitest';

import type { Approval } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { callErr } from '../helpers.js';
import { runCli, toolsHarness } from '../tools/helpers.js';

const harness = toolsHarness();
afterEach(() => harness.closeAll());

/** Polls until `n` approvals are pending; returns them. */
async function pending(core: Core, n: number): Promise<Approval[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await core.broker.listApprovals({ status: 'pending' });
    if (rows.length >= n) return rows;
    if (Date.now() > deadline) throw new Error(`${rows.length} of ${n} approvals appeared`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The whitespace-separated columns of the line that starts with approval `id`. */
function columnsOf(stdout: string, id: string): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith(`${id} `));
  if (line === undefined) throw new Error(`no line for ${id} in:\n${stdout}`);
  return line.split(/\s+/);
}

describe('cairn approvals list', () => {
  it('prints the short task id of a linked call and - for an unlinked one', async () => {
    const { core, dbPath, connect } = await harness.open();
    const task = await core.board.createTask({ title: 'Prune old builds' });
    const tools = await connect({ scopeAgentId: 'ops' });
    const linked = tools.callTool({
      name: 'delete_path',
      arguments: { path: '/srv/old' },
      _meta: { 'cairn/taskId': task.id },
    });
    await pending(core, 1);
    const unlinked = callErr(tools, 'delete_path', { path: '/srv/other' });
    const rows = await pending(core, 2);
    const withTask = rows.find((a) => a.taskId === task.id);
    const without = rows.find((a) => a.taskId === null);
    if (withTask === undefined || without === undefined) throw new Error('links not recorded');

    const list = await runCli(dbPath, ['approvals', 'list']);
    expect(list.code, list.stderr).toBe(0);
    const [, status, tool, taskCol, caller] = columnsOf(list.stdout, withTask.id);
    expect([status, tool, taskCol, caller]).toEqual([
      'pending',
      'delete_path',
      task.id.slice(0, 8),
      'ops',
    ]);
    expect(columnsOf(list.stdout, without.id).slice(1, 5)).toEqual([
      'pending',
      'delete_path',
      '-',
      'ops',
    ]);

    await core.broker.decide(withTask.id, 'allow_once', 'test');
    await core.broker.decide(without.id, 'deny', 'test');
    expect((await linked).isError).toBeFalsy();
    expect((await unlinked).meta?.['denied']).toMatchObject({ reason: 'approval_denied' });
    const all = await runCli(dbPath, ['approvals', 'list', '--status', 'all']);
    expect(columnsOf(all.stdout, withTask.id).slice(1, 5)).toEqual([
      'allowed',
      'delete_path',
      task.id.slice(0, 8),
      'ops',
    ]);
  });
});
