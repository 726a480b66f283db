// The inbox piggyback across processes: several tasks servers bound as one agent, each its own
// OS process and SQLite connection, race to collect one backlog while a third process keeps
// posting. Every entry reaches the agent exactly once.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { InboxDelivery } from '../../src/board/index.js';
import { INBOX_META } from '../../src/mcp/tasks-server.js';
import { type Arena, createArena } from './fixtures.js';
import { BUSY_PATTERN, REQUEST_TIMEOUT_MS, type TasksProcess } from './spawn.js';

/**
 * Calls list_tasks until a call made after `stop()` turned true brings nothing back; returns
 * every delivered text.
 */
async function collect(p: TasksProcess, stop: () => boolean): Promise<string[]> {
  const got: string[] = [];
  for (let calls = 0; calls < 2000; calls++) {
    const last = stop();
    const result = (await p.client.callTool({ name: 'list_tasks', arguments: {} }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const inbox = result._meta?.[INBOX_META] as InboxDelivery | undefined;
    got.push(...(inbox?.items ?? []).map((i) => i.text));
    if (inbox === undefined && last) return got;
  }
  throw new Error('collector did not finish within 2000 calls');
}

describe('inbox piggyback across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('4 processes bound as one agent share its inbox: each entry is handed over once', async () => {
    const a = (arena = await createArena());
    const procs = await a.pool.spawnMany(4, ['--agent', 'builder']);
    let posting = true;
    const posted: string[] = [];
    const poster = a.withCore(async (core) => {
      for (let i = 0; i < 60; i++) {
        const text = `@builder note ${i}`;
        await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text });
        posted.push(text);
        // Spread the posts so the collectors race over a live backlog, not a finished one.
        await new Promise((r) => setTimeout(r, 5));
      }
      posting = false;
    });
    const collected = await Promise.all(procs.map((p) => collect(p, () => !posting)));
    await poster;
    const all = collected.flat();
    expect(all.slice().sort()).toEqual(posted.slice().sort());
    expect(new Set(all).size).toBe(60);
    expect(a.pool.stderr()).not.toMatch(BUSY_PATTERN);
    expect(a.pool.stderr()).not.toContain('inbox piggyback skipped');
    expect(collected.filter((c) => c.length > 0).length, a.pool.stderr()).toBeGreaterThan(1);
  }, 120_000);
});
