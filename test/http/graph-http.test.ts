// cairn-graph over Streamable HTTP (createHttpService on 127.0.0.1, port 0): mounted at
// /api/mcp/graph behind the bearer token, replaying the scripted session with the official
// memory server's answers, and no session without the token.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { call, officialClient, SESSION } from '../graph/official.js';
import { tempDir, type TempDir } from '../helpers.js';
import { httpSessions, initializeStatus, type Running, TOKEN } from './helpers.js';

describe('graph server over HTTP', () => {
  let svc: Running;
  let dir: TempDir;
  const sessions = httpSessions();

  beforeEach(async () => {
    dir = tempDir('cairn-graph-http-');
    svc = await sessions.start();
  });
  afterEach(async () => {
    await sessions.closeAll();
    dir.cleanup();
  });

  const url = (): string => `${svc.base}/api/mcp/graph`;

  it('serves cairn-graph at /api/mcp/graph: the session answers as the official server', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    expect(client.getServerVersion()?.name).toBe('cairn-graph');
    const official = await officialClient(join(dir.path, 'memory.jsonl'));
    try {
      for (const [i, step] of SESSION.entries())
        expect(await call(client, step), `step ${i}`).toEqual(await call(official, step));
    } finally {
      await official.close();
    }
  }, 120_000);

  it('refuses a session with a wrong bearer token', async () => {
    expect(await initializeStatus(url(), 'wrong-token')).toBe(401);
  });
});
