// The rooms page in Chromium against a real `cairn serve` child: a post made over MCP shows up
// live on the open room (no reload), and a post from the page's composer reaches an agent's
// waiting `team_chat_subscribe` as kind=user (still isUser=false). Screenshots the page.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DeliveredPost } from '../../src/rooms/index.js';
import { callOk, ROOT } from '../helpers.js';
import { httpClient, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl, narrowShot } from './browser.js';

const SHOTS = join(ROOT, 'docs/screenshots');
const TEAM = { teamId: 't1' };

interface SubscribePage {
  posts: DeliveredPost[];
  nextSeq: number;
}

const post = (page: Page, seq: number) => page.locator(`li.post[data-seq="${seq}"]`);

async function openTeamRoom(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Rooms' }).click();
  await page.getByRole('button', { name: /#team\.t1/ }).click();
  await page.locator('.live.live').waitFor();
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
});
