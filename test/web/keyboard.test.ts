// A keyboard-only walkthrough of every dashboard page in Chromium against a real `cairn serve`
// child: only Tab / Shift+Tab / Enter / Space / Escape / arrows (and typing into fields) reach the
// skip link, the nav and each page's main controls: a board card and its drawer, the approval
// buttons (releasing a waiting MCP call), the audit filters and pager, memory search and its item
// panel, agent rotation with its confirmation and the copy buttons, the connect snippet's copy,
// and the rooms list and composer. Focus must land somewhere sensible after every action, and the
// page must log no console errors.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

/** What the test reads of an element (test/ typechecks without the DOM lib). */
interface El {
  ownerDocument: { activeElement: unknown };
}

const isFocused = (target: Locator): Promise<boolean> =>
  target.evaluate((el: El) => el === el.ownerDocument.activeElement);

/** The focused element, for failure messages. */
const focusedName = (page: Page): Promise<string> =>
  page.evaluate<string>(`(() => {
    const e = document.activeElement;
    if (!e) return 'nothing';
    const name = e.getAttribute('aria-label') || e.textContent || e.getAttribute('name') || '';
    return e.tagName.toLowerCase() + ' "' + name.trim().slice(0, 60) + '"';
  })()`);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, back = false, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(target)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}; focus is on ${await focusedName(page)}`);
}

async function expectFocus(page: Page, target: Locator): Promise<void> {
  await expect.poll(() => isFocused(target), { timeout: 5000 }).toBe(true);
  expect(await isFocused(target), await focusedName(page)).toBe(true);
}

/** Goes back up to the nav with Shift+Tab and follows the page's link with Enter. */
async function navigate(page: Page, label: string, path: string): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: label });
  await tabTo(page, link, true);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === path);
}

async function seed(serve: ServeProcess): Promise<{ pendingCall: Promise<unknown> }> {
  const token = apiToken(serve);
  const memory = await httpClient(`${serve.base}/api/mcp/memory`, token);
  const tasks = await httpClient(`${serve.base}/api/mcp/tasks`, token);
  const team = await httpClient(`${serve.base}/api/mcp/teamchat`, token);
  try {
    await memory.client.callTool({
      name: 'memory_save',
      arguments: { title: 'Deploy window', content: 'Deploys happen on Tuesdays.' },
    });
    await tasks.client.callTool({ name: 'create_task', arguments: { title: 'Keyboard task' } });
    await team.client.callTool({
      name: 'team_chat_post',
      arguments: { teamId: 't1', authorAgentId: 'ann', text: 'ann: hello' },
    });
  } finally {
    await Promise.all([memory.close(), tasks.close(), team.close()]);
  }
  const res = await fetch(`${serve.base}/v1/agents/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ nick: 'builder-1', channels: ['#general'] }),
  });
  expect(res.status).toBe(201);
  const tools = await httpClient(`${serve.base}/api/mcp/tools`, token);
  for (let i = 0; i < 8; i++) {
    await tools.client.callTool({ name: 'echo', arguments: { message: `ping ${i}` } });
  }
  const pendingCall = tools.client
    .callTool({ name: 'delete_path', arguments: { path: '/tmp/old-build' } })
    .finally(() => tools.close());
  return { pendingCall };
}

/** Skip link, then a board card: Enter opens its drawer (focus on Close), Escape closes it. */
async function board(page: Page): Promise<void> {
  const card = page.locator('[data-task-id]').first();
  await card.waitFor();
  await page.keyboard.press('Tab');
  await expectFocus(page, page.getByRole('link', { name: 'Skip to content' }));
  await page.keyboard.press('Enter');
  await expectFocus(page, page.locator('#content'));
  await tabTo(page, card);
  await page.keyboard.press('Enter');
  await expectFocus(page, page.getByRole('dialog').getByRole('button', { name: 'Close task' }));
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Space on "Approve once" releases the waiting call; focus moves to the heading. */
async function approvals(page: Page, pendingCall: Promise<unknown>): Promise<void> {
  await navigate(page, 'Approvals', '/approvals');
  const approve = page.locator('article.approval').getByRole('button', { name: 'Approve once' });
  await approve.waitFor();
  await tabTo(page, approve);
  await page.keyboard.press('Space');
  expect(await pendingCall).toMatchObject({ structuredContent: { path: '/tmp/old-build' } });
  await expectFocus(page, page.getByRole('heading', { name: 'Approvals' }));
  await page.getByText('Nothing is waiting for you').waitFor();
}

/** The tool filter (typed, Enter), then Older / Newer with the keyboard. */
async function audit(page: Page): Promise<void> {
  await navigate(page, 'Audit', '/audit');
  const rows = page.locator('table.audit tbody tr');
  await rows.first().waitFor();
  await tabTo(page, page.getByLabel('Tool', { exact: true }));
  await page.keyboard.type('delete_path');
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => new Set(await rows.locator('td:nth-child(2)').allInnerTexts()))
    .toEqual(new Set(['delete_path']));
  await tabTo(page, page.getByLabel('Tool', { exact: true }), true);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expect.poll(() => rows.count()).toBe(50);
  const pages = page.getByRole('navigation', { name: 'Audit pages' });
  const older = pages.getByRole('button', { name: 'Older' });
  await tabTo(page, older);
  await page.keyboard.press('Enter');
  await page.getByText('Page 2', { exact: true }).waitFor();
  await expectFocus(page, older);
  expect(await older.getAttribute('aria-disabled')).toBe('true');
  await tabTo(page, pages.getByRole('button', { name: 'Newer' }), true);
  await page.keyboard.press('Space');
  await page.getByText('Page 1', { exact: true }).waitFor();
}

/** Search (fts via the arrow keys), open a hit (focus on Close), Escape back to the hit. */
async function memory(page: Page): Promise<void> {
  await navigate(page, 'Memory', '/memory');
  await tabTo(page, page.getByLabel('Search memory'));
  await page.keyboard.type('tuesdays');
  await tabTo(page, page.getByRole('radio', { name: 'hybrid' }));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(await page.getByRole('radio', { name: 'fts' }).isChecked()).toBe(true);
  await tabTo(page, page.getByRole('button', { name: 'Search', exact: true }));
  await page.keyboard.press('Enter');
  const title = page.locator('li.hit').getByRole('button', { name: 'Deploy window' });
  await title.waitFor();
  await tabTo(page, title);
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Memory item' });
  await expectFocus(page, panel.getByRole('button', { name: 'Close' }));
  await panel.getByText('Deploys happen on Tuesdays.').waitFor();
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await expectFocus(page, title);
}

/** Rotate → Cancel has focus; Escape returns to Rotate; confirm; copy the token; hide. */
async function agents(page: Page): Promise<void> {
  await navigate(page, 'Agents', '/agents');
  const row = page.locator('tr[data-agent="builder-1"]');
  const rotate = row.getByRole('button', { name: 'Rotate' });
  await rotate.waitFor();
  await tabTo(page, rotate);
  await page.keyboard.press('Enter');
  await expectFocus(page, row.getByRole('button', { name: 'Cancel' }));
  await page.keyboard.press('Escape');
  await expectFocus(page, rotate);
  await page.keyboard.press('Enter');
  await expectFocus(page, row.getByRole('button', { name: 'Cancel' }));
  await page.keyboard.press('Shift+Tab');
  await expectFocus(page, row.getByRole('button', { name: 'Yes, rotate' }));
  await page.keyboard.press('Enter');
  const creds = page.getByRole('status', { name: 'New credentials' });
  await expectFocus(page, creds);
  const token = await creds.locator('code.secret').first().innerText();
  await tabTo(page, creds.getByRole('button', { name: 'Copy' }).first());
  await page.keyboard.press('Enter');
  await creds.getByRole('button', { name: 'Copied' }).waitFor();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(token);
  await tabTo(page, creds.getByRole('button', { name: 'Done, hide them' }));
  await page.keyboard.press('Enter');
  await creds.waitFor({ state: 'detached' });
  await expectFocus(page, page.getByRole('heading', { name: 'Agents' }));
}

/** The Server select with the arrow keys, then Copy puts the snippet on the clipboard. */
async function connect(page: Page): Promise<void> {
  await navigate(page, 'Connect', '/connect');
  const snippet = page.getByTestId('snippet');
  await snippet.filter({ hasText: '/api/mcp/tasks' }).waitFor();
  await tabTo(page, page.getByLabel('Server'));
  await page.keyboard.press('ArrowDown');
  await snippet.filter({ hasText: '/api/mcp/memory' }).waitFor();
  const copy = page.getByRole('region', { name: 'Attach snippet' }).getByRole('button');
  await tabTo(page, copy);
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  // Screen readers hear it too: a polite live region beside the button.
  const said = page.getByRole('region', { name: 'Attach snippet' }).getByRole('status');
  expect(await said.getAttribute('aria-live')).toBe('polite');
  expect(await said.textContent()).toBe('Copied to the clipboard');
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
    await snippet.innerText(),
  );
}

/** Open #team.t1 from the list, post with Ctrl+Enter, then with Tab to Post and Space. */
async function rooms(page: Page): Promise<void> {
  await navigate(page, 'Rooms', '/rooms');
  const room = page.getByRole('button', { name: /#team\.t1/ });
  await room.waitFor();
  await tabTo(page, room);
  await page.keyboard.press('Enter');
  await page.locator('li.post[data-seq="1"]').waitFor();
  const box = page.getByLabel('Post as user');
  await tabTo(page, box);
  await page.keyboard.type('first, with Ctrl+Enter');
  await page.keyboard.press('Control+Enter');
  await page.locator('li.post[data-seq="2"]').getByText('first, with Ctrl+Enter').waitFor();
  await expect.poll(() => box.inputValue()).toBe('');
  await page.keyboard.type('second, with the Post button');
  await tabTo(page, page.getByRole('button', { name: 'Post', exact: true }));
  await page.keyboard.press('Space');
  await page.locator('li.post[data-seq="3"]').getByText('second, with the Post button').waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)('keyboard-only walkthrough in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('reaches the nav and every page’s main controls without a mouse, error-free', async () => {
    const serve = await spawnServe([], { CAIRN_EMBEDDINGS: 'none' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: serve.base,
    });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    try {
      const { pendingCall } = await seed(serve);
      await page.goto(loginUrl(serve));
      await board(page);
      await approvals(page, pendingCall);
      await audit(page);
      await memory(page);
      await agents(page);
      await connect(page);
      await rooms(page);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await serve.cleanup();
    }
  });
});
