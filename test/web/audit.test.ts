// The audit page's paging and filters in Chromium against a real `cairn serve` child. Real broker
// calls over MCP (two clients, so two callers) write more rows than one page holds (50); the
// page goes Older / Newer through the server's cursors, and each filter (tool, caller, outcome,
// time range) narrows the table to exactly the rows the REST route returns for it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

const PAGE = 50;

/** An MCP client of the tools server that the broker knows as `client:<name>`. */
async function toolsClient(serve: ServeProcess, name: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${serve.base}/api/mcp/tools`), {
    requestInit: { headers: { Authorization: `Bearer ${apiToken(serve)}` } },
  });
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** 8 echo calls from `client:audit-a`; one echo and one note from `client:audit-b`. */
async function seedCalls(serve: ServeProcess): Promise<void> {
  const a = await toolsClient(serve, 'audit-a');
  const b = await toolsClient(serve, 'audit-b');
  try {
    for (let i = 0; i < 8; i++) {
      const r = await a.callTool({ name: 'echo', arguments: { message: `ping ${i}` } });
      expect(r.isError).toBeFalsy();
    }
    expect((await b.callTool({ name: 'echo', arguments: { message: 'b' } })).isError).toBeFalsy();
    const note = await b.callTool({ name: 'note', arguments: { note: 'audit me' } });
    expect(note.isError).toBeFalsy();
  } finally {
    await a.close();
    await b.close();
  }
}

interface Row {
  id: number;
  tool: string;
  caller: string;
  outcome: string;
}

/** Every row the REST route returns for a query (one page of up to 500). */
async function restRows(serve: ServeProcess, query: Record<string, string> = {}): Promise<Row[]> {
  const q = new URLSearchParams({ limit: '500', ...query });
  const res = await fetch(`${serve.base}/api/audit?${q.toString()}`, {
    headers: { authorization: `Bearer ${apiToken(serve)}` },
  });
  return ((await res.json()) as { entries: Row[] }).entries;
}

const rows = (page: Page) => page.locator('table.audit tbody tr');
const cells = (page: Page, column: number) =>
  rows(page).locator(`td:nth-child(${column})`).allInnerTexts();
const pager = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Audit pages' }).getByRole('button', { name: label });

async function apply(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    if (label === 'Outcome') await page.getByLabel(label).selectOption(value);
    else await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole('button', { name: 'Apply' }).click();
}

/** Waits until the table shows `n` rows (or the empty state for 0) on page 1. */
async function shows(page: Page, n: number): Promise<void> {
  await page.getByText('Page 1', { exact: true }).waitFor();
  if (n === 0) await page.getByText('No audit rows match').waitFor();
  else await expect.poll(() => rows(page).count()).toBe(n);
}

describe.skipIf(!HAVE_CHROMIUM)('audit paging and filters in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('pages through more rows than one page and narrows them with every filter', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      await seedCalls(serve);
      const all = await restRows(serve);
      expect(all.length).toBeGreaterThan(PAGE);
      expect(all.length).toBeLessThanOrEqual(2 * PAGE);

      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await page.getByRole('link', { name: /^Audit/ }).click();
      await shows(page, PAGE);
      const first = await rows(page).first().innerText();
      expect(await pager(page, 'Newer').getAttribute('aria-disabled')).toBe('true');
      await pager(page, 'Older').click();
      await page.getByText('Page 2', { exact: true }).waitFor();
      await expect.poll(() => rows(page).count()).toBe(all.length - PAGE);
      expect(await pager(page, 'Older').getAttribute('aria-disabled')).toBe('true');
      expect(await rows(page).first().innerText()).not.toBe(first);
      await pager(page, 'Newer').click();
      await shows(page, PAGE);
      expect(await rows(page).first().innerText()).toBe(first);

      const notes = await restRows(serve, { tool: 'note' });
      await apply(page, { Tool: 'note' });
      await shows(page, notes.length);
      expect(new Set(await cells(page, 2))).toEqual(new Set(['note']));

      const fromB = await restRows(serve, { caller: 'client:audit-b' });
      expect(fromB.length).toBeGreaterThan(notes.length);
      await apply(page, { Tool: '', Caller: 'client:audit-b' });
      await shows(page, fromB.length);
      expect(new Set(await cells(page, 3))).toEqual(new Set(['client:audit-b']));

      const notRequired = await restRows(serve, {
        caller: 'client:audit-b',
        outcome: 'not_required',
      });
      expect(notRequired).toHaveLength(2);
      await apply(page, { Outcome: 'not_required' });
      await shows(page, 2);

      await apply(page, { Caller: '', Outcome: '', From: '2099-01-01T00:00' });
      await shows(page, 0);
      await apply(page, { From: '', To: '2000-01-01T00:00' });
      await shows(page, 0);
      await apply(page, { To: '' });
      await shows(page, PAGE);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });
});
