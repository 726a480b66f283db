// Browser-test helpers: Debian's Chromium through playwright-core (never a downloaded build),
// a logged-in page against a `cairn serve` child, console-error capture, card drags.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';
import { format } from 'prettier';
import { expect } from 'vitest';

import { ROOT } from '../helpers.js';
import type { ServeProcess } from '../http/helpers.js';

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
