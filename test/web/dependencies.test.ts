// The drawer's dependency picker in Chromium against a real `cairn serve` child: typing part of
// a title offers the board's matching tasks, minus the task itself, its current dependencies
// and the tasks that depend on it (a link to one would close a cycle); arrows and Enter link
// the chosen one, and Escape closes the list before it closes the drawer. Keyboard only.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

/** Creates the tasks by title, then the edges `[task, dependsOn]`; returns the ids by title. */
async function seed(
  serve: ServeProcess,
  titles: readonly string[],
  edges: ReadonlyArray<readonly [string, string]>,
): Promise<Map<string, string>> {
  const c = await httpClient(`${serve.base}/api/mcp/tasks`, apiToken(serve));
  const ids = new Map<string, string>();
  try {
    for (const title of titles) {
      const res = await c.client.callTool({ name: 'create_task', arguments: { title } });
      ids.set(title, (res.structuredContent as { id: string }).id);
    }
    for (const [task, dep] of edges) {
      const res = await c.client.callTool({
        name: 'link_task',
        arguments: { taskId: ids.get(task), dependsOnTaskId: ids.get(dep) },
      });
      expect(res.isError).toBeFalsy();
    }
  } finally {
    await c.close();
  }
  return ids;
}

async function dependenciesOf(serve: ServeProcess, id: string): Promise<string[]> {
  const res = await fetch(`${serve.base}/api/board/tasks/${id}`, {
    headers: { authorization: `Bearer ${apiToken(serve)}` },
  });
  const detail = (await res.json()) as { dependencies: Array<{ title: string }> };
  return detail.dependencies.map((t) => t.title);
}

const optionTexts = (page: Page): Promise<string[]> =>
  page.getByRole('listbox', { name: 'Matching tasks' }).getByRole('option').allInnerTexts();

describe.skipIf(!HAVE_CHROMIUM)('dependency picker in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('searches the board by title, leaves out self, current deps and cycles, links with Enter', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      const ids = await seed(
        serve,
        ['Write the release notes', 'Write the parser', 'Write the changelog', 'Write the docs'],
        [
          ['Write the release notes', 'Write the docs'], // already a dependency
          ['Write the changelog', 'Write the release notes'], // depends on it: a cycle
        ],
      );
      const notes = ids.get('Write the release notes') ?? '';
      await page.goto(loginUrl(serve));
      await page.locator(`[data-task-id="${notes}"]`).focus();
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: 'Write the release notes' });
      const box = drawer.getByRole('combobox', { name: 'Add a dependency' });
      await box.focus();
      await page.keyboard.type('WRITE');
      const list = drawer.getByRole('listbox', { name: 'Matching tasks' });
      await list.getByRole('option').first().waitFor();
      expect(await optionTexts(page)).toEqual([expect.stringMatching(/^Write the parser\s+To do/)]);
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'hidden' });
      expect(await drawer.isVisible()).toBe(true);
      await page.keyboard.press('ArrowDown');
      expect(await box.getAttribute('aria-activedescendant')).not.toBeNull();
      await page.keyboard.press('Enter');
      await page.getByText('Dependency linked').waitFor();
      const deps = drawer.getByRole('heading', { name: 'Depends on' }).locator('..');
      await deps.getByRole('button', { name: 'Unlink Write the parser' }).waitFor();
      expect(await box.inputValue()).toBe('');
      expect((await dependenciesOf(serve, notes)).sort()).toEqual([
        'Write the docs',
        'Write the parser',
      ]);
      // Now a dependency too: nothing left to offer for "write".
      await page.keyboard.type('write');
      await drawer.getByText('No task to link matches “write”.').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });
});
