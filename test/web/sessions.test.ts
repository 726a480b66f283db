// The sessions page in Chromium against a real `cairn serve` child: sessions logged over the
// context server's MCP mount are listed with agent, model, repository, counts; filters narrow
// the list and say when they remove everything; a session opens on its timeline (tool calls,
// delegation linking to the child, observation), is summarized (then found unchanged), and the
// child links back to its parent. Screenshots at 1280 and 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl, narrowShot } from './browser.js';

const SHOTS = join(ROOT, 'docs/screenshots');
const META = { model_id: 'm-1', operator_id: 'ann' };

/** s-main (worker: a failed bash, an edit, a delegation to c-1, a note; completed), s-other. */
async function seed(serve: ServeProcess): Promise<void> {
  const mcp = await httpClient(`${serve.base}/api/mcp/context`, apiToken(serve));
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.client.callTool({ name, arguments: args, _meta: META });
    expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  };
  try {
    const main = { session_id: 's-main' };
    await call('start_session', {
      ...main,
      data: { title: 'fix the build', agent_type: 'worker', project_id: 'acme/app' },
    });
    await call('log_tool_call', { ...main, data: { tool_name: 'bash', error: 'exit 1' } });
    await call('log_tool_call', {
      ...main,
      data: { tool_name: 'edit_file', args: { file_path: 'src/a.ts' } },
    });
    await call('log_delegation', {
      ...main,
      data: { child_session_id: 'c-1', agent_type: 'reviewer', task: 'review the diff' },
    });
    await call('store_memory', {
      resource: 'observation',
      data: { content: 'The build needs node 20', session_id: 's-main' },
    });
    await call('start_session', { action: 'update', ...main, data: { status: 'completed' } });
    await call('start_session', { session_id: 's-other', data: { agent_type: 'reviewer' } });
  } finally {
    await mcp.close();
  }
}

/** The list: the row's columns, then the status filter and an agent type nothing matches. */
async function listAndFilter(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Sessions' }).click();
  const row = page.locator('tr[data-session="s-main"]');
  await row.waitFor();
  const cells = await row.locator('td').allInnerTexts();
  expect(cells.slice(1, 7)).toEqual([
    'worker / cairn-http-test',
    'm-1',
    'acme/app',
    'completed',
    '2',
    '1',
  ]);
  await page.getByText('3 sessions match.').waitFor();
  await page.getByLabel('Status').selectOption('completed');
  await page.getByText('1 session matches.').waitFor();
  expect(await page.locator('tr[data-session]').count()).toBe(1);
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Agent type').fill('nobody');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('3 sessions recorded, none matches the filters.').waitFor();
  expect(await page.locator('tr[data-session]').count()).toBe(0);
}

/** One session: timeline, summarize twice, then the child and back to the parent. */
async function detail(page: Page): Promise<void> {
  await page.goto(page.url().replace(/\/sessions.*$/, '/sessions?id=s-main'));
  const panel = page.getByRole('region', { name: 'Session s-main' });
  const items = panel.getByRole('list', { name: 'Timeline' }).locator('li');
  await items.nth(3).waitFor();
  const kinds = await Promise.all((await items.all()).map((i) => i.getAttribute('data-kind')));
  expect(kinds).toEqual(['tool_call', 'tool_call', 'delegation', 'observation']);
  expect(await items.nth(0).innerText()).toMatch(/failed bash — exit 1/);
  await panel.getByText('Not summarized yet.').waitFor();
  await panel.getByRole('button', { name: 'Summarize' }).click();
  await panel.getByRole('status').filter({ hasText: 'Summary written.' }).waitFor();
  const text = await panel.locator('pre.summary-text').innerText();
  expect(text).toContain('- bash (call 1): exit 1');
  expect(text).toContain('- c-1 [started] reviewer: review the diff (child active)');
  await panel.getByRole('button', { name: 'Summarize again' }).click();
  await panel
    .getByRole('status')
    .filter({ hasText: 'Unchanged since the last summary.' })
    .waitFor();
  await page.screenshot({ path: join(SHOTS, 'sessions-1280x800.png') });
  await narrowShot(page, 'sessions');
  await items.nth(2).getByRole('link', { name: 'c-1' }).click();
  const child = page.getByRole('region', { name: 'Session c-1' });
  await child.getByText('Nothing logged in this session yet.').waitFor();
  await child.getByRole('link', { name: 's-main' }).click();
  await page.getByRole('region', { name: 'Session s-main' }).waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)('the sessions page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('lists and filters sessions, shows a timeline, summarizes, links child and parent', async () => {
    const serve = await spawnServe([], { CAIRN_EMBEDDINGS: 'none' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      await seed(serve);
      mkdirSync(SHOTS, { recursive: true });
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await listAndFilter(page);
      await detail(page);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });
});
