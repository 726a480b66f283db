// `cairn serve` with IRC: the --irc-port listener answers on loopback beside HTTP, `0` turns it
// off, and a port that is already taken, asked for explicitly, is an error.
import { createServer } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { type ServeProcess, spawnServe, within } from '../http/helpers.js';
import { rawClient } from './helpers.js';

let serve: ServeProcess | undefined;
afterEach(async () => {
  await serve?.cleanup();
  serve = undefined;
});

/** A free loopback port, held open by the returned server until `release`. */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  return { port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('cairn serve --irc-port', () => {
  it('listens for IRC on loopback and prints the address', async () => {
    const held = await holdPort();
    await held.release();
    serve = await spawnServe(['--irc-port', String(held.port)]);
    expect(serve.stdout()).toContain(`IRC: irc://127.0.0.1:${held.port}`);
    const c = await rawClient(held.port);
    c.send('PING :serve');
    await c.expect(/^:cairn\.irc PONG cairn\.irc :serve$/);
    c.send('JOIN #general');
    await c.expect(/ 451 \* :You have not registered$/);
    c.close();
  });

  it('is off with --irc-port 0', async () => {
    serve = await spawnServe(['--irc-port', '0']);
    expect(serve.stdout()).toContain('IRC: off');
  });

  it('fails when an explicit IRC port is taken', async () => {
    const held = await holdPort();
    try {
      await expect(spawnServe(['--irc-port', String(held.port)])).rejects.toThrow(
        /cannot listen for IRC on 127\.0\.0\.1/,
      );
    } finally {
      await within(5000, 'port release', held.release());
    }
  });
});
