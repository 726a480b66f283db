// Bearer auth on /api/*, the --no-auth loopback rule, the token file, and the DNS-rebinding
// check (Host and Origin), over real sockets on 127.0.0.1.
import { realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import {
  apiTokenPath,
  createHttpService,
  ensureApiToken,
  ensureServerSecret,
} from '../../src/http/index.js';
import { callOk, tempCore, tempDir } from '../helpers.js';
import {
  ACCEPT_BOTH,
  httpClient,
  initializeBody,
  rawRequest,
  type Running,
  SECRET,
  startService,
  TOKEN,
} from './helpers.js';

interface RouteCase {
  method: string;
  path: string;
  body?: string;
}

const ROUTES: RouteCase[] = [
  { method: 'POST', path: '/api/mcp/tasks', body: JSON.stringify(initializeBody()) },
  { method: 'POST', path: '/api/mcp/tasks/', body: JSON.stringify(initializeBody()) },
  { method: 'GET', path: '/api/mcp/tasks' },
  { method: 'DELETE', path: '/api/mcp/tasks' },
  { method: 'GET', path: '/api/mcp/config?runtime=claude-code&server=tasks' },
  { method: 'GET', path: '/api/mcp/nope' },
  { method: 'GET', path: '/api/anything/else' },
  { method: 'PUT', path: '/api/mcp/tasks', body: '{}' },
];

const BAD_AUTH: Array<Record<string, string>> = [
  {},
  { authorization: '' },
  { authorization: 'Bearer' },
  { authorization: 'Bearer wrong-token' },
  { authorization: `Bearer ${TOKEN}x` },
  { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
  { authorization: TOKEN },
  { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}` },
  { authorization: 'Bearer cairn_scoped_forged' },
  { 'x-api-key': TOKEN },
];

async function call(
  base: string,
  route: RouteCase,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(`${base}${route.path}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    ...(route.body === undefined ? {} : { body: route.body }),
    signal: AbortSignal.timeout(10_000),
  });
}

describe('bearer auth', () => {
  let svc: Running | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('refuses every /api route without the right token: 401 with a JSON body', async () => {
    svc = await startService();
    for (const route of ROUTES) {
      for (const headers of BAD_AUTH) {
        const res = await call(svc.base, route, headers);
        const what = `${route.method} ${route.path} with ${JSON.stringify(headers)}`;
        expect(res.status, what).toBe(401);
        expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
        expect(res.headers.get('www-authenticate'), what).toMatch(/^Bearer/);
        const body = (await res.json()) as { error: string; message: string };
        expect(body.error, what).toBe('unauthorized');
        expect(body.message, what).not.toContain(TOKEN);
      }
    }
    expect(svc.http.mounts.get('tasks')?.sessionCount).toBe(0);
  });

  it('says why a request was refused and names the token file in use', async () => {
    svc = await startService({ apiTokenFile: '/srv/cairn-home/api_token' });
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{}, 'missing_token', /^missing bearer token: send "Authorization: Bearer <token>"; /],
      [{ authorization: 'Basic x' }, 'missing_token', /^missing bearer token/],
      [{ authorization: 'Bearer wrong-token' }, 'wrong_token', /^wrong bearer token: /],
      [{ authorization: 'Bearer cairn_scoped_x' }, 'wrong_token', /^wrong bearer token: /],
    ];
    for (const [headers, reason, message] of cases) {
      const res = await call(svc.base, { method: 'GET', path: '/api/tasks' }, headers);
      const body = (await res.json()) as { reason: string; message: string };
      expect(body.reason, JSON.stringify(headers)).toBe(reason);
      expect(body.message).toMatch(message);
      expect(body.message).toContain(
        "this server's API token is in /srv/cairn-home/api_token (`cairn token` prints it)",
      );
    }
    // The backplane: /v1 names the file too; /mcp keeps the spec's JSON-RPC body.
    const v1 = await fetch(`${svc.base}/v1/agents`);
    expect(v1.status).toBe(401);
    expect(((await v1.json()) as { message: string }).message).toContain(
      "send the server's API token (in /srv/cairn-home/api_token; `cairn token` prints it)",
    );
    const rpc = await fetch(`${svc.base}/mcp`, { method: 'POST', body: '{}' });
    expect(rpc.status).toBe(401);
    expect(await rpc.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized' },
      id: null,
    });
    await svc.close();
    svc = await startService();
    const res = await call(svc.base, { method: 'GET', path: '/api/tasks' }, {});
    expect(((await res.json()) as { message: string }).message).toContain(
      'API token is in $CAIRN_HOME/api_token',
    );
  });

  it('answers an unauthenticated large upload with 401 instead of hanging', async () => {
    svc = await startService();
    const res = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: 'x'.repeat(3 * 1024 * 1024),
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('lets the master token through', async () => {
    svc = await startService();
    const auth = { authorization: `Bearer ${TOKEN}` };
    const config = await call(
      svc.base,
      { method: 'GET', path: '/api/mcp/config?runtime=claude-code&server=tasks' },
      auth,
    );
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({ runtime: 'claude-code', server: 'tasks' });
    // Lower-case scheme is accepted too.
    const init = await call(
      svc.base,
      { method: 'POST', path: '/api/mcp/tasks', body: JSON.stringify(initializeBody()) },
      { authorization: `bearer ${TOKEN}` },
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).not.toBeNull();
    await init.text();
    const unknown = await call(svc.base, { method: 'GET', path: '/api/anything/else' }, auth);
    expect(unknown.status).toBe(404);
    await unknown.text();

    const { client, close } = await httpClient(svc.mcpUrl, TOKEN);
    try {
      await callOk(client, 'create_task', { title: 'authorised' });
    } finally {
      await close();
    }
  });

  it('leaves /healthz open', async () => {
    svc = await startService();
    const res = await fetch(`${svc.base}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });
});

describe('--no-auth', () => {
  let svc: Running | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('is refused on a non-loopback host', async () => {
    const t = await tempCore();
    try {
      for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
        expect(() =>
          createHttpService(t.core, { host, port: 0, apiToken: null, secret: SECRET }),
        ).toThrow(/only allowed on a loopback host/);
      }
      // With a token, a non-loopback host is fine to construct (not listened on here).
      expect(() =>
        createHttpService(t.core, { host: '0.0.0.0', port: 0, apiToken: TOKEN, secret: SECRET }),
      ).not.toThrow();
    } finally {
      await t.close();
    }
  });

  it('works without a token on loopback', async () => {
    svc = await startService({ apiToken: null });
    const { client, close } = await httpClient(svc.mcpUrl, null);
    try {
      expect(client.getServerVersion()?.name).toBe('cairn-tasks');
      await callOk(client, 'create_task', { title: 'open' });
    } finally {
      await close();
    }
    const config = await fetch(`${svc.base}/api/mcp/config?runtime=cursor&server=tasks`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(config.status).toBe(200);
    const snippet = (await config.json()) as { snippet: string };
    expect(snippet.snippet).not.toContain('Authorization');
  });
});

describe('secrets files', () => {
  it('creates api_token and server_secret once, mode 0600', () => {
    const home = tempDir();
    try {
      const dir = join(home.path, 'nested', '.cairn');
      const token = ensureApiToken(dir);
      expect(token).toMatch(/^cairn_[A-Za-z0-9_-]{40,}$/);
      expect(statSync(join(dir, 'api_token')).mode & 0o777).toBe(0o600);
      expect(ensureApiToken(dir)).toBe(token);
      const secret = ensureServerSecret(dir);
      expect(statSync(join(dir, 'server_secret')).mode & 0o777).toBe(0o600);
      expect(ensureServerSecret(dir)).toBe(secret);
      expect(secret).not.toBe(token);
    } finally {
      home.cleanup();
    }
  });

  it('names the token file by its real path (symlinks resolved)', () => {
    const home = tempDir();
    try {
      const real = join(home.path, 'real-home');
      ensureApiToken(real);
      const link = join(home.path, 'link-home');
      symlinkSync(real, link);
      expect(apiTokenPath(link)).toBe(join(realpathSync(real), 'api_token'));
      expect(apiTokenPath(join(home.path, 'none'))).toBe(join(home.path, 'none', 'api_token'));
    } finally {
      home.cleanup();
    }
  });
});

describe('DNS-rebinding check', () => {
  let svc: Running | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('refuses a foreign Host or Origin with 403 and accepts loopback names', async () => {
    svc = await startService();
    const { port, base } = svc;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const config = `${base}/api/mcp/config?runtime=codex&server=tasks`;

    for (const headers of [
      { host: `evil.example:${port}` },
      { host: 'evil.example' },
      { host: `127.0.0.1:${port + 1}` },
      { host: `localhost:${port}`, origin: 'http://evil.example' },
      { host: `127.0.0.1:${port}`, origin: `http://evil.example:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'null' },
    ]) {
      for (const url of [config, `${base}/healthz`, svc.mcpUrl]) {
        // With a valid token too: the check runs before auth.
        const res = await rawRequest(url, { headers: { ...auth, ...headers } });
        expect(res.status, `${url} ${JSON.stringify(headers)}`).toBe(403);
        expect(JSON.parse(res.body)).toMatchObject({ error: 'forbidden' });
      }
    }

    for (const headers of [
      { host: `localhost:${port}` },
      { host: `127.0.0.1:${port}` },
      { host: `LOCALHOST:${port}` },
      { host: `[::1]:${port}` },
      { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` },
      { host: `localhost:${port}`, origin: `http://127.0.0.1:${port}` },
    ]) {
      const health = await rawRequest(`${base}/healthz`, { headers });
      expect(health.status, JSON.stringify(headers)).toBe(200);
      const res = await rawRequest(config, { headers: { ...auth, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      const body = JSON.parse(res.body) as { url: string };
      // The snippet names the host the caller used.
      expect(body.url.toLowerCase()).toContain(`//${headers.host.toLowerCase()}/api/mcp/tasks`);
    }
  });

  it('accepts an extra allowed host when configured', async () => {
    svc = await startService({ allowedHosts: ['cairn.lan:4870'] });
    const ok = await rawRequest(`${svc.base}/healthz`, { headers: { host: 'cairn.lan:4870' } });
    expect(ok.status).toBe(200);
    const bad = await rawRequest(`${svc.base}/healthz`, { headers: { host: 'cairn.lan:9999' } });
    expect(bad.status).toBe(403);
  });
});
