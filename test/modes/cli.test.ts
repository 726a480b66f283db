// The CLI of the modes and tokens, as its own process: `cairn token mint` prints a token the
// server secret verifies (and refuses a missing agent or a bad --ttl); `cairn mcp context` stops
// at start, naming what to set, for a mode that needs a remote without one and for bad values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { verifyContextToken } from '../../src/auth/index.js';
import { cairn } from '../cli/run.js';
import { tempDir, type TempDir } from '../helpers.js';

describe('cairn token mint and cairn mcp context modes', () => {
  let home: TempDir;
  beforeEach(() => {
    home = tempDir('cairn-modes-cli-');
  });
  afterEach(() => home.cleanup());

  it('token mint prints a token for the agent, valid for --ttl, signed with the server secret', async () => {
    const before = Date.now();
    const run = await cairn(home.path, ['token', 'mint', '--agent', 'ann', '--ttl', '2h']);
    expect(run.code, run.stderr).toBe(0);
    const secret = readFileSync(join(home.path, 'server_secret'), 'utf8').trim();
    const verified = await verifyContextToken(secret, run.stdout.trim());
    expect(verified.agent).toBe('ann');
    expect(verified.expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7_200_000);
    expect(verified.expiresAt).toBeLessThanOrEqual(Date.now() + 7_200_000);
    expect(run.stderr).toMatch(/^# context token for agent ann, valid until \d{4}-\d\d-\d\dT/);
    // `cairn token` still prints the API token.
    const api = await cairn(home.path, ['token']);
    expect(api.stdout).toMatch(/^cairn_/);
  });

  it('token mint refuses a missing agent, a bad name and a bad --ttl', async () => {
    const none = await cairn(home.path, ['token', 'mint']);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe('cairn: --agent NAME is required (the agent the token names)\n');
    const bad = await cairn(home.path, ['token', 'mint', '--agent', 'a b']);
    expect(bad.stderr).toMatch(/^cairn: --agent must be 1 to 128 characters/);
    const ttl = await cairn(home.path, ['token', 'mint', '--agent', 'ann', '--ttl', '1w']);
    expect(ttl.code).toBe(2);
    expect(ttl.stderr).toBe(
      'cairn: --ttl must be a duration like 90s, 30m, 1h or 7d (at most 366d), got 1w\n',
    );
  });

  it('mcp context refuses to start in a forwarding mode without a remote, and bad settings', async () => {
    const refused = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
      const run = await cairn(home.path, ['mcp', 'context', ...args], env);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      return run.stderr;
    };
    expect(await refused(['--mode', 'client-hybrid'])).toBe(
      'cairn: client-hybrid mode forwards the search, memory, session, agent, project, vcs, entity families to a shared cairn serve, and no remote is set: pass --remote URL (e.g. http://host:4870) or set CAIRN_CONTEXT_REMOTE\n',
    );
    expect(await refused([], { CAIRN_CONTEXT_MODE: 'server-hybrid' })).toMatch(
      /^cairn: server-hybrid mode forwards the index, search, memory, session, agent, project, vcs, entity families/,
    );
    expect(await refused([], { CAIRN_CONTEXT_MODE: 'hybrid' })).toBe(
      'cairn: CAIRN_CONTEXT_MODE must be one of stdio-only, client-hybrid, server-hybrid, got hybrid\n',
    );
    expect(await refused(['--mode', 'stdio-only', '--remote', 'http://127.0.0.1:1'])).toMatch(
      /^cairn: --remote has no use in stdio-only mode/,
    );
    expect(await refused(['--remote', 'http://127.0.0.1:1/api/mcp/tasks'])).toBe(
      "cairn: --remote must be the server's base URL (http://host:4870) or its /api/mcp/context, got http://127.0.0.1:1/api/mcp/tasks\n",
    );
    expect(
      await refused(['--remote', 'http://127.0.0.1:1'], { CAIRN_CONTEXT_TIMEOUT_MS: 'soon' }),
    ).toBe(
      'cairn: CAIRN_CONTEXT_TIMEOUT_MS must be an integer from 100 to 600000 (ms), got soon\n',
    );
  });
});
