// End to end with a Debian IRC client: ii (FIFOs in a directory) logs in with PASS, joins
// #general, says a line that lands in history, and receives an envelope sent through the
// backplane. Skipped, with the reason, when the `ii` binary is not installed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../helpers.js';
import { eventually, type IrcEnv, ircEnv, until } from './helpers.js';

function findIi(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v ii'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const II = findIi();
if (II === undefined) {
  process.stderr.write(
    '[test/irc/ii] skipped: the ii binary is not installed (apt-get install -y ii)\n',
  );
}

let env: IrcEnv | undefined;
let dir: TempDir | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGTERM');
  child = undefined;
  await env?.close();
  env = undefined;
  dir?.cleanup();
  dir = undefined;
});

const read = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

describe.skipIf(II === undefined)(
  'IRC with the Debian client ii (skipped when ii is absent)',
  () => {
    it('logs in with PASS, joins, sends a line to history and receives an envelope', async () => {
      const e = await ircEnv();
      env = e;
      dir = tempDir('cairn-ii-');
      const creds = await e.agent('ii-user');
      child = spawn(
        II ?? 'ii',
        ['-s', '127.0.0.1', '-p', String(e.port), '-n', 'ii-user', '-k', 'IIPASS', '-i', dir.path],
        { env: { ...process.env, IIPASS: creds.password }, stdio: 'ignore' },
      );
      const server = join(dir.path, '127.0.0.1');
      await until(() => read(join(server, 'out')).includes('Welcome to the Cairn'), 'ii 001');

      writeFileSync(join(server, 'in'), '/j #general\n');
      const channel = join(server, '#general');
      await until(() => existsSync(join(channel, 'in')), 'the #general FIFO');
      writeFileSync(join(channel, 'in'), 'hello from ii\n');
      const history = await eventually(
        () => e.core.backplane.history({ channel: '#general' }),
        (m) => m.length > 0,
        'the ii line in history',
      );
      expect(history[0]?.envelope).toMatchObject({
        type: 'text',
        from: 'ii-user',
        payload: { text: 'hello from ii' },
      });

      await e.core.backplane.send(
        { kind: 'operator' },
        { channel: '#general', type: 'agent.hello', payload: { note: 'welcome, ii' } },
      );
      await until(
        () => read(join(channel, 'out')).includes('"type":"agent.hello"'),
        'the envelope',
      );
      const out = read(join(channel, 'out'));
      expect(out).toMatch(
        /<operator> \{"v":1,"type":"agent\.hello",.*"payload":\{"note":"welcome, ii"\}\}/,
      );
      writeFileSync(join(server, 'in'), '/q bye\n');
      await until(() => e.gateway.connectionCount() === 0, 'ii to quit');
    });
  },
);
