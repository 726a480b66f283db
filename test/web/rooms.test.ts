// The rooms page in Chromium against a real `cairn serve` child: a post made over MCP shows up
// live on the open room (no reload), and a post from the page's composer reaches an agent's
// waiting `team_chat_subscribe` as kind=user (still isUser=false). The room list is live (a
// channel and a team room created elsewhere appear without a reload); a channel shows each
// envelope's type and sender, and a post into #general reaches a backplane agent's get_history
// (real SDK client with the agent's token). Screenshots the page.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DeliveredPost } from '../../src/rooms/index.js';
import { callOk, ROOT } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl, narrowShot } from './browser.js';

const SHOTS = join(ROOT, 'docs/screenshots');
const TEAM = { teamId: 't1' };

interface SubscribePage {
  posts: DeliveredPost[];
  nextSeq: number;
}

const post = (page: Page, seq: number) => page.locator(`li.post[data-seq="${seq}"]`);

const roomLive = (page: Page) => page.locator('section.room .live.live');

async function openTeamRoom(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Rooms' }).click();
  await page.getByRole('button', { name: /#team\.t1/ }).click();
  await roomLive(page).waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)('rooms in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('shows MCP posts live and delivers page posts to agents as kind=user', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const mcp = await httpClient(`${serve.base}/api/mcp/teamchat`, apiToken(serve));
    const call = <T>(tool: string, args: Record<string, unknown>) =>
      callOk<T>(mcp.client, tool, { ...TEAM, ...args });
    try {
      await call('team_chat_post', { authorAgentId: 'ann', text: 'ann: starting the build' });
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await openTeamRoom(page);
      expect(await post(page, 1).innerText()).toContain('ann: starting the build');

      await call('team_chat_post', { authorAgentId: 'ann', text: 'ann: build is green' });
      await post(page, 2).getByText('ann: build is green').waitFor();

      const waiting = call<SubscribePage>('team_chat_subscribe', {
        authorAgentId: 'bob',
        sinceSeq: 2,
        waitMs: 15_000,
      });
      await page.getByLabel('Post as user').fill('please ship it, bob');
      await page.getByRole('button', { name: 'Post' }).click();
      const got = await waiting;
      expect(got.posts).toHaveLength(1);
      expect(got.posts[0]).toMatchObject({ seq: 3, authorAgentId: 'user', kind: 'user' });
      expect(got.posts[0]?.wrapped).toBe(
        '[Inter-session message · from=user · kind=user · seq=3 · isUser=false]\nplease ship it, bob',
      );
      await post(page, 3).getByText('please ship it, bob').waitFor();
      expect(await post(page, 3).getByTestId('post-kind').innerText()).toBe('user');
      expect(await page.getByLabel('Post as user').inputValue()).toBe('');
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, 'rooms-1280x800.png') });
      await narrowShot(page, 'rooms');
      expect(errors).toEqual([]);
    } finally {
      await mcp.close();
      await page.close();
      await serve.cleanup();
    }
  });

  it('lists new rooms live, shows envelope types, and posts into #general for backplane agents', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const worker = await registerAgent(serve, 'worker-1');
    const agent = await httpClient(`${serve.base}/api/mcp/backplane`, worker);
    try {
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await page.getByRole('link', { name: 'Rooms' }).click();
      await page.locator('[data-testid="rooms-live"].live').waitFor();
      const builds = page.getByRole('button', { name: /#builds/ });
      expect(await builds.count()).toBe(0);
      await v1(serve, '/v1/channels', { name: '#builds', topic: 'CI results' });
      await builds.filter({ hasText: 'CI results' }).waitFor();
      await teamPost(serve, 't7', 'ann', 'hello from team 7');
      await page.getByRole('button', { name: /#team\.t7/ }).waitFor();

      await page.getByRole('button', { name: /#general/ }).click();
      await roomLive(page).waitFor();
      const sent = await agent.client.callTool({
        name: 'send_message',
        arguments: {
          channel: '#general',
          type: 'task.update',
          payload: { id: 'T1', status: 'done' },
          to: ['@workers'],
        },
      });
      expect(sent.isError).toBeFalsy();
      const envelope = post(page, 1);
      await envelope.waitFor();
      expect(await envelope.getByTestId('post-type').innerText()).toBe('task.update');
      expect(await envelope.locator('.who').innerText()).toBe('worker-1');
      expect(await envelope.innerText()).toContain('to @workers');
      expect(await envelope.getByTestId('post-kind').count()).toBe(0);

      await page.getByLabel('Post as user').fill('all hands: freeze merges');
      await page.getByLabel('Post as user').press('Control+Enter');
      await post(page, 2).getByText('all hands: freeze merges').waitFor();
      expect(await post(page, 2).getByTestId('post-type').innerText()).toBe('text');
      expect(await post(page, 2).getByTestId('post-kind').innerText()).toBe('user');
      expect(await post(page, 2).locator('.who').innerText()).toBe('user');
      const history = await agent.client.callTool({
        name: 'get_history',
        arguments: { channel: '#general' },
      });
      const { messages } = history.structuredContent as { messages: unknown[] };
      expect(messages.at(-1)).toMatchObject({
        seq: 2,
        type: 'text',
        from: 'user',
        payload: { text: 'all hands: freeze merges' },
      });
      expect(errors).toEqual([]);
    } finally {
      await agent.close();
      await page.close();
      await serve.cleanup();
    }
  });
});

/** A REST call to the backplane as the operator; returns the JSON answer. */
async function v1(serve: ServeProcess, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${serve.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiToken(serve)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return res.json();
}

/** Registers a worker in #general; returns its bearer token. */
async function registerAgent(serve: ServeProcess, nick: string): Promise<string> {
  const creds = (await v1(serve, '/v1/agents/register', { nick, channels: ['#general'] })) as {
    token: string;
  };
  return creds.token;
}

async function teamPost(serve: ServeProcess, teamId: string, author: string, text: string) {
  const mcp = await httpClient(`${serve.base}/api/mcp/teamchat`, apiToken(serve));
  try {
    await callOk(mcp.client, 'team_chat_post', { teamId, authorAgentId: author, text });
  } finally {
    await mcp.close();
  }
}
