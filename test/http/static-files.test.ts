// The dashboard at `/`: before web/dist is built, `/` and client routes answer a page saying
// how to build it (not a bare 404 or plain text); a missing asset stays a 404; once built,
// index.html is served.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../helpers.js';
import { httpSessions } from './helpers.js';

describe('dashboard files', () => {
  const sessions = httpSessions();
  let root: TempDir;
  beforeEach(() => {
    root = tempDir('cairn-web-');
  });
  afterEach(async () => {
    await sessions.closeAll();
    root.cleanup();
  });

  it('says how to build the dashboard until it is built', async () => {
    const svc = await sessions.start({ webRoot: join(root.path, 'dist') });
    for (const path of ['/', '/board', '/approvals/a1']) {
      const res = await fetch(`${svc.base}${path}`);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const body = await res.text();
      expect(body).toContain('npm run build:web');
      expect(body).toContain('The dashboard is not built');
    }
    const head = await fetch(`${svc.base}/`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    const asset = await fetch(`${svc.base}/assets/app.js`);
    expect(asset.status).toBe(404);
    await asset.text();
  });

  it('serves index.html once built', async () => {
    const dist = join(root.path, 'dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Cairn</title>');
    const svc = await sessions.start({ webRoot: dist });
    const res = await fetch(`${svc.base}/board`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<!doctype html><title>Cairn</title>');
  });
});
