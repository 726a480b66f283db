// Browser-test helpers: Debian's Chromium through playwright-core (never a downloaded build),
// a logged-in page against a `cairn serve` child, console-error capture, card drags, MCP clients
// bound to an agent, and a database from before the task event log.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';
import { format } from 'prettier';
import { expect } from 'vitest';

import { ROOT, tempCore } from '../helpers.js';
import { type HttpClient, httpClient, type ServeProcess } from '../http/helpers.js';

export const CHROMIUM = process.env['CAIRN_CHROMIUM'] ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Runs `cairn open --print --url <base>` as the serve child's user; returns the login URL. */
export function loginUrl(serve: ServeProcess): string {
  const out = execFileSync(
    process.execPath,
    [join(ROOT, 'bin/cairn.js'), 'open', '--print', '--url', serve.base],
    { env: { ...process.env, CAIRN_HOME: serve.home.path }, encoding: 'utf8' },
  );
  return out.trim();
}

export function apiToken(serve: ServeProcess): string {
  return readFileSync(join(serve.home.path, 'api_token'), 'utf8').trim();
}

/** Collects console errors and page errors of `page`. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Resizes to 390×800, asserts the page does not scroll sideways, screenshots it into
 * docs/screenshots/<name>-390.png, then restores 1280×800.
 */
export async function narrowShot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 800 });
  // A string, not a function: test/ typechecks without the DOM lib.
  const { width, wide } = await page.evaluate<{ width: number; wide: string[] }>(`(async () => {
    await new Promise((r) => requestAnimationFrame(r));
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > 391)
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + '.' + e.className);
    return { width: document.documentElement.scrollWidth, wide };
  })()`);
  expect(width, `${name} overflows at 390 px: ${wide.join(' ')}`).toBeLessThanOrEqual(391);
  mkdirSync(join(ROOT, 'docs/screenshots'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'docs/screenshots', `${name}-390.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Drags a card onto a column with real mouse events. */
export async function dragCard(page: Page, taskId: string, column: string): Promise<void> {
  const card = await page.locator(`[data-task-id="${taskId}"]`).boundingBox();
  const target = await page.locator(`[data-column="${column}"]`).boundingBox();
  if (card === null || target === null) throw new Error('card or column not visible');
  await page.mouse.move(card.x + card.width / 2, card.y + card.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + 60, { steps: 12 });
  await page.mouse.up();
}

/** Rewrites the `dashboard` section of docs/benchmarks.md (between its markers). */
export async function recordBench(markdown: string): Promise<void> {
  const file = join(ROOT, 'docs/benchmarks.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- bench:dashboard:start -->';
  const end = '<!-- bench:dashboard:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return;
  const body = (await format(markdown, { parser: 'markdown' })).trimEnd();
  writeFileSync(file, `${text.slice(0, a + start.length)}\n\n${body}\n\n${text.slice(b)}`);
}

/**
 * An SDK client on `server`'s signed attach URL (`/api/mcp/config?scopeAgentId=`), bound to
 * `agent` with a scoped token, not the master one.
 */
export async function attachAs(
  serve: ServeProcess,
  server: 'tasks' | 'tools',
  agent: string,
): Promise<HttpClient> {
  const q = `runtime=claude-code&server=${server}&scopeAgentId=${agent}`;
  const res = await fetch(`${serve.base}/api/mcp/config?${q}`, {
    headers: { authorization: `Bearer ${apiToken(serve)}` },
  });
  const { url, snippet } = (await res.json()) as { url: string; snippet: string };
  const doc = JSON.parse(snippet) as {
    mcpServers: Record<string, { headers: { Authorization: string } }>;
  };
  const auth = Object.values(doc.mcpServers)[0]?.headers.Authorization ?? '';
  return httpClient(url, auth.replace(/^Bearer /, ''));
}

/**
 * Writes a database whose one task (`Legacy task`, done) predates the event log: its events
 * removed and migration 13 unrecorded, so `cairn serve` back-fills it when it opens the file.
 */
export async function preHistoryDb(dbPath: string): Promise<string> {
  // A SQLite file on both projects: migration 13 is re-run on a file, never on PostgreSQL.
  const seeded = await tempCore({ dbPath, dbUrl: '' });
  try {
    const task = await seeded.core.board.createTask({ title: 'Legacy task', status: 'done' });
    await seeded.core.store.run('DELETE FROM task_events WHERE task_id = ?', [task.id]);
    await seeded.core.store.run('DELETE FROM schema_migrations WHERE version = 13');
    return task.id;
  } finally {
    await seeded.core.close();
  }
}

/** The bits of a history `<li>` the tests read (test/ typechecks without the DOM lib). */
interface HistoryItem {
  innerText: string;
  querySelector(selector: string): { innerText: string } | null;
}

/** Opens a task's drawer with the keyboard; returns the history lines, newest first. */
export async function historyOf(page: Page, id: string): Promise<string[]> {
  await page.locator(`[data-task-id="${id}"]`).focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('dialog').getByRole('list', { name: 'Status history' });
  await list.locator('li').first().waitFor();
  // Each line without its (locale-formatted) time.
  const lines = await list
    .locator('li')
    .evaluateAll((items: HistoryItem[]) =>
      items.map((li) => li.innerText.replace(li.querySelector('time')?.innerText ?? '', '').trim()),
    );
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  return lines;
}
