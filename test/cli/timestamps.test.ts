// One timestamp format in CLI output: `cairn approvals list --json`, `approvals show`,
// `audit` (text and --json) and `agents list` (text and --json) print times as ISO 8601.
import { afterEach, describe, expect, it } from 'vitest';

import { nonIsoTimes, timeFieldCount } from '../timestamps.js';
import { runCli, toolsHarness } from '../tools/helpers.js';

const harness = toolsHarness();
afterEach(() => harness.closeAll());

const ISO_AT_START = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

describe('timestamps in CLI output', () => {
  it('prints ISO 8601 in every listing', async () => {
    const { core, dbPath, connect } = await harness.open();
    const tools = await connect();
    const waiting = tools.callTool({ name: 'delete_path', arguments: { path: '/srv/x' } });
    const deadline = Date.now() + 30_000;
    while ((await core.broker.listApprovals({ status: 'pending' })).length === 0) {
      if (Date.now() > deadline) throw new Error('no approval appeared');
      await new Promise((r) => setTimeout(r, 20));
    }
    await core.backplane.register({ kind: 'operator' }, { nick: 'w1' });
    const json = async (args: string[]): Promise<unknown> => {
      const run = await runCli(dbPath, args);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as unknown;
    };
    const list = (await json(['approvals', 'list', '--json'])) as Array<{ id: string }>;
    const outputs: Record<string, unknown> = {
      list,
      show: await json(['approvals', 'show', list[0]?.id ?? '']),
      audit: await json(['audit', '--json']),
      agents: await json(['agents', 'list', '--json']),
    };
    for (const [what, out] of Object.entries(outputs)) {
      expect(nonIsoTimes(out), what).toEqual([]);
      expect(timeFieldCount(out), what).toBeGreaterThan(0);
    }
    const audit = await runCli(dbPath, ['audit']);
    const lines = audit.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(ISO_AT_START);
    await runCli(dbPath, ['approvals', 'deny', list[0]?.id ?? '']);
    await waiting;
  });
});
