// Grants on the approvals page in Chromium against a real `cairn serve` child: an unbound
// caller's card offers no "Approve always" and says why; a bound agent's card names the tool,
// the principal and the expiry; the grant lists under Standing grants and lets the agent's
// next call through; Revoke removes it and the agent's next call waits on the page again.
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { httpClient, spawnServe } from '../http/helpers.js';
import {
  apiToken,
  attachAs,
  consoleErrors,
  HAVE_CHROMIUM,
  launch,
  loginUrl,
  narrowShot,
} from './browser.js';

const badge = (page: Page) => page.locator('[data-testid="pending-badge"]');

describe.skipIf(!HAVE_CHROMIUM)('grants in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('grants only to a bound agent, says so on the button, lists and revokes', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const unbound = await httpClient(`${serve.base}/api/mcp/tools`, apiToken(serve));
    const ops = await attachAs(serve, 'tools', 'ops');
    try {
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await page.getByRole('link', { name: /^Approvals/ }).click();
      await page.getByText('No standing grants').waitFor();
      const first = unbound.client.callTool({ name: 'delete_path', arguments: { path: '/a' } });
      const card = page.locator('article.approval');
      await card.waitFor();
      await card.getByTestId('no-grant').waitFor();
      expect(await card.getByTestId('no-grant').innerText()).toContain(
        'client:cairn-http-test is an unbound session',
      );
      expect(await card.getByRole('button', { name: /Approve always/ }).count()).toBe(0);
      await card.getByRole('button', { name: 'Approve once' }).click();
      expect((await first).isError).toBeFalsy();
      await page.getByText('Nothing is waiting for you').waitFor();

      const second = ops.client.callTool({ name: 'delete_path', arguments: { path: '/b' } });
      await card.getByRole('button', { name: /Approve always/ }).waitFor();
      const always = card.getByRole('button', {
        name: 'Approve always: delete_path for agent:ops, until revoked',
      });
      expect(await always.count()).toBe(1);
      await card.getByLabel('Grant lasts').selectOption({ label: 'for 1 day' });
      const oneDay = card.getByRole('button', {
        name: 'Approve always: delete_path for agent:ops, for 1 day',
      });
      const before = Date.now();
      await oneDay.click();
      expect((await second).isError).toBeFalsy();
      const row = page.locator('section.grants tbody tr');
      await row.waitFor();
      expect(await row.innerText()).toMatch(/delete_path\s+agent:ops\s+until /);
      const listed = (await (
        await fetch(`${serve.base}/api/approvals/grants`, {
          headers: { authorization: `Bearer ${apiToken(serve)}` },
        })
      ).json()) as { grants: Array<{ expiresAt: string; grantedBy: string }> };
      expect(listed.grants[0]?.grantedBy).toBe('dashboard');
      expect(Date.parse(listed.grants[0]?.expiresAt ?? '')).toBeGreaterThanOrEqual(
        before + 86_400_000 - 60_000,
      );
      // The grant lets the agent's next call through without a card.
      const granted = await ops.client.callTool({ name: 'delete_path', arguments: { path: '/c' } });
      expect(granted.isError).toBeFalsy();
      // Another agent's call waits beside ops's standing grant (the screenshots show both).
      const dev = await attachAs(serve, 'tools', 'dev');
      const devCall = dev.client.callTool({ name: 'delete_path', arguments: { path: '/e' } });
      await card
        .getByRole('button', { name: /^Approve always: delete_path for agent:dev/ })
        .waitFor();
      await page.screenshot({ path: join(ROOT, 'docs/screenshots/grants-1280x800.png') });
      await narrowShot(page, 'grants');
      await card.getByRole('button', { name: 'Deny' }).click();
      expect((await devCall).isError).toBe(true);
      await dev.close();

      await page.getByRole('button', { name: 'Revoke delete_path for agent:ops' }).click();
      await page.getByText('Revoked: delete_path for agent:ops').waitFor();
      await page.getByText('No standing grants').waitFor();
      const third = ops.client.callTool({ name: 'delete_path', arguments: { path: '/d' } });
      await badge(page).filter({ hasText: '1' }).waitFor();
      await card.getByRole('button', { name: 'Deny' }).click();
      expect((await third).isError).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await unbound.close();
      await ops.close();
      await page.close();
      await serve.cleanup();
    }
  });
});
