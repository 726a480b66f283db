// The shared server plumbing hands each tool the request's abort signal, so a long wait (a
// team_chat_subscribe long-poll, a broker approval) ends when the client cancels the call; and
// the request's _meta, the session's client name and a progress reporter (with a token only).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { linkedClient } from '../../test/helpers.js';
import { createMcpServer } from './server.js';
import { defineTool } from './tool.js';

describe('createMcpServer', () => {
  it('aborts the handler signal when the client cancels the call', async () => {
    let aborted = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const server = createMcpServer({
      name: 'test',
      version: '0',
      logger: pino({ level: 'silent' }),
      tools: [
        defineTool({
          name: 'wait',
          description: 'waits until cancelled (at most 5 s)',
          input: z.object({}),
          handler: async (_args, { signal }) => {
            started();
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, 5000);
              signal.addEventListener('abort', () => {
                aborted = true;
                clearTimeout(timer);
                resolve();
              });
            });
            return { done: true };
          },
        }),
      ],
    });
    const client = await linkedClient(server);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await running;
    controller.abort('test cancelled');
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 50 && !aborted; i++) await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toBe(true);
    await client.close();
  });

  it('hands the handler the request _meta, the client name and progress when asked', async () => {
    const seen: { meta: unknown; client: unknown; progress: boolean }[] = [];
    const server = createMcpServer({
      name: 'test',
      version: '0',
      logger: pino({ level: 'silent' }),
      tools: [
        defineTool({
          name: 'look',
          description: 'records its context and reports progress twice (the second does not grow)',
          input: z.object({}),
          handler: (_args, ctx) => {
            seen.push({ meta: ctx.meta, client: ctx.client, progress: ctx.progress !== undefined });
            ctx.progress?.({ progress: 1, total: 2, message: 'half' });
            ctx.progress?.({ progress: 1, total: 2, message: 'again' });
            ctx.progress?.({ progress: 2, total: 2 });
            return Promise.resolve({ ok: true });
          },
        }),
      ],
    });
    const client = await linkedClient(server);
    await client.callTool({ name: 'look', arguments: {}, _meta: { session_id: 's1' } });
    const reports: unknown[] = [];
    await client.callTool({ name: 'look', arguments: {} }, undefined, {
      onprogress: (p) => reports.push(p),
    });
    expect(seen[0]).toEqual({ meta: { session_id: 's1' }, client: 'cairn-test', progress: false });
    expect(seen[1]?.progress).toBe(true);
    expect(seen[1]?.meta).toHaveProperty('progressToken');
    expect(reports).toEqual([
      { progress: 1, total: 2, message: 'half' },
      { progress: 2, total: 2 },
    ]);
    await client.close();
  });
});
