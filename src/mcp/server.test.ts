// The shared server plumbing hands each tool the request's abort signal, so a long wait (a
// team_chat_subscribe long-poll, a broker approval) ends when the client cancels the call.
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
});
