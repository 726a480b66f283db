// serve.json: written whole, found while its pid lives, stale once the pid is gone, removed
// only by the server that wrote it, and unreadable or foreign content counts as none.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../../test/helpers.js';
import {
  findServer,
  removeServeRecord,
  resolveServerUrl,
  type ServeRecord,
  serveRecordPath,
  writeServeRecord,
} from './serve-record.js';

const record = (pid: number, port = 5123): ServeRecord => ({
  url: `http://127.0.0.1:${port}`,
  host: '127.0.0.1',
  port,
  pid,
  db: '/srv/cairn/cairn.db',
  irc: null,
  auth: true,
  version: '0.0.0',
  started: new Date(0).toISOString(),
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('serve record', () => {
  let home: TempDir;
  beforeEach(() => {
    home = tempDir('cairn-record-');
  });
  afterEach(() => home.cleanup());

  it('is found while its pid is alive and stale once it is gone', () => {
    expect(findServer(home.path).state).toBe('none');
    writeServeRecord(home.path, record(process.pid));
    expect(findServer(home.path)).toMatchObject({ state: 'running', record: { port: 5123 } });
    expect(resolveServerUrl(undefined, home.path)).toEqual({
      url: 'http://127.0.0.1:5123',
      record: record(process.pid),
    });

    const dead = deadPid();
    writeServeRecord(home.path, record(dead));
    expect(findServer(home.path).state).toBe('stale');
    const assumed = resolveServerUrl(undefined, home.path, { CAIRN_PORT: '4999' });
    expect(assumed.url).toBe('http://127.0.0.1:4999');
    expect(assumed.assumed).toContain(`is stale (pid ${dead} is gone); assumed`);
    expect(resolveServerUrl('http://h:1/', home.path)).toEqual({ url: 'http://h:1' });
  });

  it('is removed only by the pid that wrote it', () => {
    writeServeRecord(home.path, record(process.pid));
    removeServeRecord(home.path, process.pid + 1);
    expect(existsSync(serveRecordPath(home.path))).toBe(true);
    removeServeRecord(home.path, process.pid);
    expect(existsSync(serveRecordPath(home.path))).toBe(false);
  });

  it('treats garbage as no server', () => {
    writeFileSync(join(home.path, 'serve.json'), '{"url": 42');
    expect(findServer(home.path).state).toBe('none');
    writeFileSync(join(home.path, 'serve.json'), '{"url": "http://x", "pid": "1"}');
    expect(findServer(home.path).state).toBe('none');
  });
});
