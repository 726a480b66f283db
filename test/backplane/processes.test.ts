// The backplane across OS processes: stdio bins racing to register one nick (exactly one
// wins, every round), an agent token over stdio, and `cairn agents list|rotate|revoke`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { ROOT, silentLogger, tempDir, type TempDir } from '../helpers.js';
import { ask, credentialsOf, okText, spawnBackplane } from './helpers.js';

const run = promisify(execFile);
type Proc = Awaited<ReturnType<typeof spawnBackplane>>;

describe('backplane across processes', () => {
  let dir: TempDir | undefined;
  const procs: Proc[] = [];
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    dir?.cleanup();
    dir = undefined;
  });

  async function setup(): Promise<{ db: string; home: string }> {
    const d = (dir = tempDir('cairn-backplane-'));
    const db = join(d.path, 'cairn.db');
    await (await createCore({ dbPath: db, logger: silentLogger, embedder: null })).close();
    return { db, home: join(d.path, 'home') };
  }

  it('two processes registering the same nick at once: exactly one wins', async () => {
    const env = await setup();
    const [a, b] = await Promise.all([spawnBackplane(env), spawnBackplane(env)]);
    if (a === undefined || b === undefined) throw new Error('spawn failed');
    procs.push(a, b);
    for (let round = 0; round < 5; round++) {
      const nick = `racer-${round}`;
      const answers = await Promise.all([
        ask(a.client, 'register_agent', { nick }),
        ask(b.client, 'register_agent', { nick: nick.toUpperCase() }),
      ]);
      const won = answers.filter((x) => x.kind === 'ok');
      const lost = answers.filter((x) => x.kind === 'tool-error');
      expect(won, JSON.stringify(answers)).toHaveLength(1);
      expect(lost[0]?.kind === 'tool-error' && lost[0].text).toMatch(
        new RegExp(`^nick is taken: ${nick}$`, 'i'),
      );
    }
    expect(await okText(a.client, 'get_status')).toBe('status: ok\nagents: 0 active, 5 total');
  });

  it('acts as the operator over stdio, or as an agent with --agent-token / CAIRN_AGENT_TOKEN', async () => {
    const env = await setup();
    const op = await spawnBackplane(env);
    procs.push(op);
    const creds = credentialsOf(await okText(op.client, 'register_agent', { nick: 'stdio-agent' }));
    const asFlag = await spawnBackplane({ ...env, args: ['--agent-token', creds.token] });
    const asEnv = await spawnBackplane({ ...env, env: { CAIRN_AGENT_TOKEN: creds.token } });
    const wrong = await spawnBackplane({ ...env, args: ['--agent-token', 'cairn_agent_bogus'] });
    procs.push(asFlag, asEnv, wrong);
    await okText(op.client, 'send_message', { channel: '#general', type: 'agent.hello' });
    await okText(asFlag.client, 'send_message', { channel: '#general', type: 'task.update' });
    await okText(asEnv.client, 'send_message', { channel: '#general', type: 'agent.bye' });
    const history = await okText(op.client, 'get_history', { channel: '#general' });
    expect(
      history
        .split('\n')
        .slice(1)
        .map((l) => /<([^>]+)> type=(\S+)/.exec(l)?.slice(1).join(' ')),
    ).toEqual(['operator agent.hello', 'stdio-agent task.update', 'stdio-agent agent.bye']);
    expect(await ask(wrong.client, 'get_status')).toMatchObject({
      kind: 'rpc-error',
      code: -32001,
    });
  });

  it('cairn agents list, rotate and revoke', async () => {
    const env = await setup();
    const cli = (...args: string[]) =>
      run(process.execPath, [join(ROOT, 'bin/cairn.js'), 'agents', ...args, '--db', env.db], {
        env: {
          ...process.env,
          CAIRN_HOME: env.home,
          CAIRN_LOG_LEVEL: 'warn',
          CAIRN_EMBEDDINGS: 'none',
        },
      });
    expect((await cli('list')).stdout).toBe('no agents\n');
    const core = await createCore({ dbPath: env.db, logger: silentLogger, embedder: null });
    const first = await core.backplane.agents.register({
      nick: 'cli-agent',
      type: 'observer',
      createdBy: 'operator',
    });
    expect((await cli('list')).stdout).toMatch(/^cli-agent\s+observer\s+idle\s+never seen\n$/);
    const rotated = (await cli('rotate', 'cli-agent')).stdout;
    expect(rotated).toMatch(
      /^rotated cli-agent .*\nnick: cli-agent\npassword: \S+\ntoken: cairn_agent_\S+\n$/,
    );
    expect(await core.backplane.agents.authenticateToken(first.token)).toBeUndefined();
    const token = /token: (\S+)/.exec(rotated)?.[1] ?? '';
    expect(await core.backplane.agents.authenticateToken(token)).toMatchObject({
      nick: 'cli-agent',
    });
    expect((await cli('revoke', 'cli-agent')).stdout).toMatch(/^revoked cli-agent/);
    expect(await core.backplane.agents.authenticateToken(token)).toBeUndefined();
    expect((await cli('list')).stdout).toMatch(/^cli-agent\s+observer\s+revoked/);
    await expect(cli('rotate', 'nobody')).rejects.toMatchObject({
      stderr: 'cairn: agent not found: nobody\n',
    });
    await core.close();
  });
});
