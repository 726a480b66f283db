// The teamchat server over stdio: the real bin spawned as a child process, unbound (identity in
// args, as the spec's raw bin) and bound by --room-team/--author[/--delegate].
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { call, okData } from '../concurrency/spawn.js';
import { tempDir, type TempDir } from '../helpers.js';
import { type Page, type Posted, spawnTeamchat, type TeamchatProcess } from './helpers.js';

describe('teamchat server over stdio', () => {
  let dir: TempDir;
  const procs: TeamchatProcess[] = [];
  beforeEach(() => {
    dir = tempDir('cairn-teamchat-stdio-');
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    dir.cleanup();
  });

  const start = async (args: string[] = []): Promise<TeamchatProcess> => {
    const p = await spawnTeamchat({
      db: join(dir.path, 'cairn.db'),
      home: join(dir.path, 'home'),
      args,
    });
    procs.push(p);
    return p;
  };

  it('serves cairn-teamchat unbound and bound, sharing one room through the file', async () => {
    const free = await start();
    expect(free.client.getServerVersion()?.name).toBe('cairn-teamchat');
    const tools = (await free.client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['team_chat_post', 'team_chat_subscribe']);
    const refused = await call(free.client, 'team_chat_post', { text: 'hi' });
    expect(refused).toMatchObject({
      kind: 'tool-error',
      text: 'team_chat_post requires authorAgentId and teamId (this connection is not bound to a room)',
    });
    const posted = okData<Posted>(
      await call(free.client, 'team_chat_post', { text: 'hi', authorAgentId: 'ann', teamId: 't1' }),
    );
    expect(posted.posted).toEqual({ seq: 1, roomId: 'team:t1', authorAgentId: 'ann' });

    const bound = await start(['--room-team', 't1', '--author', 'bob', '--delegate']);
    const boundTools = (await bound.client.listTools()).tools.map((t) => t.name);
    expect(boundTools).toContain('team_delegate');
    const page = okData<Page>(
      await call(bound.client, 'team_chat_subscribe', { authorAgentId: 'ann', teamId: 'other' }),
    );
    expect(page.posts.map((p) => [p.seq, p.authorAgentId])).toEqual([[1, 'ann']]);
    expect(page.posts[0]?.wrapped).toContain('isUser=false');
  });
});
