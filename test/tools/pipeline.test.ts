// The tools server through a real SDK client (in-memory): dynamic listing, the full pipeline
// with one audit row per step, notes that persist, approvals decided in the database,
// progress while waiting, and output compaction.
import { afterEach, describe, expect, it } from 'vitest';

import { TRUNCATION_MARKER } from '../../src/broker/index.js';
import { callOk, textOf } from '../helpers.js';
import { lastCallSteps, pendingApproval, toolsHarness } from './helpers.js';

const harness = toolsHarness();
afterEach(() => harness.closeAll());

describe('tools server: listing', () => {
  it('is cairn-tools and hides web_search until TAVILY_API_KEY is set', async () => {
    const { connect } = await harness.open();
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('cairn-tools');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'note', 'delete_path']);
    const del = tools.find((t) => t.name === 'delete_path');
    expect(del?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect(del?.annotations?.destructiveHint).toBe(true);

    const keyed = await (await harness.open({ env: { TAVILY_API_KEY: 'tvly-test' } })).connect();
    const names = (await keyed.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['echo', 'note', 'web_search', 'delete_path']);
  });
});

describe('tools server: pipeline', () => {
  it('runs every step in order and audits each one', async () => {
    const { core, connect } = await harness.open();
    const client = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({ message: 'hello' });
    expect(result.structuredContent).toEqual({ message: 'hello' });
    expect(await lastCallSteps(core)).toEqual([
      ['availability', 'pass'],
      ['circuit', 'pass'],
      ['validation', 'pass'],
      ['inspection', 'pass'],
      ['approval', 'not_required'],
      ['execution', 'ok'],
      ['compaction', 'within_budget'],
      ['result', 'ok'],
    ]);
    const rows = (await core.broker.listAudit({ tool: 'echo' })).entries;
    expect(rows.every((r) => r.caller === 'client:cairn-test')).toBe(true);
  });

  it('persists notes, readable later by caller', async () => {
    const { core, connect } = await harness.open();
    const bound = await connect({ scopeAgentId: 'agent-7' });
    const saved = await callOk<{ note: { id: string; note: string } }>(bound, 'note', {
      note: 'deploy window is 14:00 UTC',
    });
    expect(saved.note.note).toBe('deploy window is 14:00 UTC');
    const notes = await core.broker.listNotes({ caller: 'agent-7' });
    expect(notes).toEqual([
      expect.objectContaining({
        id: saved.note.id,
        caller: 'agent-7',
        note: 'deploy window is 14:00 UTC',
      }),
    ]);
    expect(await core.broker.listNotes({ caller: 'someone-else' })).toEqual([]);
  });

  it('holds a destructive call for approval, reports progress, then runs the demo executor', async () => {
    const { core, connect } = await harness.open();
    const client = await connect();
    const progress: Array<{ progress: number; message?: string | undefined }> = [];
    const call = client.callTool(
      { name: 'delete_path', arguments: { path: '/srv/data' } },
      undefined,
      {
        onprogress: (p) => progress.push(p),
      },
    );
    const pending = await pendingApproval(core, 'delete_path');
    expect(pending).toMatchObject({
      status: 'pending',
      caller: 'client:cairn-test',
      args: { path: '/srv/data' },
      reason: expect.stringContaining('destructive') as unknown,
    });
    await new Promise((r) => setTimeout(r, 200));
    await core.broker.decide(pending.id, 'allow_once', 'test');
    const result = await call;
    expect(JSON.parse(textOf(result))).toMatchObject({ path: '/srv/data', deleted: false });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]?.message).toContain(pending.id);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.progress ?? 0).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
    }
    const steps = await lastCallSteps(core);
    expect(steps).toContainEqual(['approval', 'pending']);
    expect(steps).toContainEqual(['decision', 'allow_once']);
    expect(steps).toContainEqual(['approval', 'allowed']);
    expect(steps.at(-1)).toEqual(['result', 'ok']);
  });

  it('compacts output past the byte budget with a visible marker', async () => {
    const { core, connect } = await harness.open({ config: { outputBytes: 300 } });
    const client = await connect();
    const result = await client.callTool({
      name: 'echo',
      arguments: { message: 'y'.repeat(5000) },
    });
    const text = textOf(result);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(300);
    expect(text).toContain(TRUNCATION_MARKER);
    expect(text).toMatch(/showing \d+ of 5014 bytes\]$/);
    expect(result.structuredContent).toBeUndefined();
    expect(await lastCallSteps(core)).toContainEqual(['compaction', 'truncated']);
  });
});
