// HTTP test helpers: an in-process service on 127.0.0.1:0, SDK clients over Streamable HTTP,
// raw requests with a custom Host header, and a real `cairn serve` child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pino, { type Logger } from 'pino';

import type { Core, CoreOptions } from '../../src/core/index.js';
import { createHttpService, type HttpOptions, type HttpService } from '../../src/http/index.js';
import { MCP_SERVERS, type McpServerName } from '../../src/mcp/index.js';
import { processBackend, ROOT, tempCore, tempDir, type TempDir } from '../helpers.js';

export const TOKEN = 'cairn_test-master-token';
export const SECRET = 'test-secret-for-bindings';
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A pino logger that keeps every line in memory (to assert on warnings). */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), lines };
}

export interface Running {
  core: Core;
  http: HttpService;
  /** http://127.0.0.1:PORT */
  base: string;
  port: number;
  /** base + /api/mcp/tasks */
  mcpUrl: string;
  logLines: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts an in-process service over a fresh database on 127.0.0.1, port 0. */
export async function startService(
  options: Partial<HttpOptions> = {},
  coreOptions: Omit<CoreOptions, 'logger'> = {},
): Promise<Running> {
  const { logger, lines } = memoryLogger();
  const t = await tempCore({ logger, ...coreOptions });
  let http: HttpService;
  try {
    http = createHttpService(t.core, {
      host: '127.0.0.1',
      port: 0,
      apiToken: TOKEN,
      secret: SECRET,
      ...options,
    });
  } catch (err) {
    await t.close();
    throw err;
  }
  const addr = await http.listen();
  return {
    core: t.core,
    http,
    base: addr.url,
    port: addr.port,
    mcpUrl: `${addr.url}/api/mcp/tasks`,
    logLines: lines,
    close: async () => {
      await http.close();
      await t.close();
    },
  };
}

export interface HttpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

/** An SDK client over Streamable HTTP, sending `Authorization: Bearer <token>` when given. */
export async function httpClient(
  url: string,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<HttpClient> {
  const all = token === null ? headers : { ...headers, Authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: all },
  });
  const client = new Client({ name: 'cairn-http-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/**
 * Services and SDK clients a test opens; `closeAll` (in afterEach) closes the clients, then the
 * services. A service's `close` may also be called by the test: it runs once.
 */
export function httpSessions(): {
  start(
    options?: Partial<HttpOptions>,
    coreOptions?: Omit<CoreOptions, 'logger'>,
  ): Promise<Running>;
  connect(url: string, token: string | null): Promise<HttpClient>;
  closeAll(): Promise<void>;
} {
  const services: Running[] = [];
  const clients: HttpClient[] = [];
  return {
    async start(options = {}, coreOptions = {}) {
      const svc = await startService(options, coreOptions);
      let closing: Promise<void> | undefined;
      const running = { ...svc, close: () => (closing ??= svc.close()) };
      services.push(running);
      return running;
    },
    async connect(url, token) {
      const c = await httpClient(url, token);
      clients.push(c);
      return c;
    },
    async closeAll() {
      await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
      for (const svc of services.splice(0)) await svc.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request through node:http, which (unlike fetch) lets the test set the Host header. */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers, signal: AbortSignal.timeout(10_000) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The JSON-RPC messages of a response body that is either JSON or an SSE stream. */
export function rpcMessages(contentType: string | null, body: string): unknown[] {
  if (contentType?.includes('text/event-stream') === true) {
    return body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((data) => data !== '')
      .map((data) => JSON.parse(data) as unknown);
  }
  const parsed = JSON.parse(body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

export const initializeBody = (id: number | string = 1): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '0.0.0' },
  },
});

/** Headers for a raw JSON-RPC POST, with the bearer token when given. */
function rpcHeaders(token: string | null): Record<string, string> {
  const auth: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...auth };
}

/** POSTs `initialize` with raw fetch; the body is not yet read. */
export function postInitialize(url: string, token: string | null): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: rpcHeaders(token),
    body: JSON.stringify(initializeBody()),
    signal: AbortSignal.timeout(10_000),
  });
}

/** Initializes a session with raw fetch; returns the HTTP status. */
export async function initializeStatus(url: string, token: string): Promise<number> {
  const res = await postInitialize(url, token);
  await res.text();
  return res.status;
}

/** Opens a session with raw fetch (initialize + initialized); returns its id. */
export async function rawSession(url: string, token: string | null): Promise<string> {
  const init = await postInitialize(url, token);
  const id = init.headers.get('mcp-session-id');
  await init.text();
  if (init.status !== 200 || id === null) throw new Error(`initialize failed: ${init.status}`);
  const note = await fetch(url, {
    method: 'POST',
    headers: { ...rpcHeaders(token), 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    signal: AbortSignal.timeout(10_000),
  });
  await note.text();
  if (note.status !== 202) throw new Error(`initialized notification failed: ${note.status}`);
  return id;
}

/** A signed attach URL and the scoped token its snippet carries. */
export interface Minted {
  url: string;
  token: string;
}

/**
 * Asks `svc` (with the master token) for a claude-code attach snippet for `server` with the
 * binding params in `query`. Throws unless it answers 200 with an `http` entry for that URL
 * carrying a `cairn_scoped_` bearer token.
 */
export async function mintAttach(
  svc: Running,
  server: McpServerName,
  query: string,
): Promise<Minted> {
  const res = await fetch(
    `${svc.base}/api/mcp/config?runtime=claude-code&server=${server}&${query}`,
    { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(10_000) },
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`config answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { url: string; snippet: string };
  const doc = JSON.parse(body.snippet) as {
    mcpServers: Record<string, { type: string; url: string; headers: { Authorization: string } }>;
  };
  const entry = doc.mcpServers[MCP_SERVERS[server].title];
  if (entry?.type !== 'http' || entry.url !== body.url) {
    throw new Error(`no http entry for ${body.url} in ${body.snippet}`);
  }
  const token = entry.headers.Authorization.replace(/^Bearer /, '');
  if (!token.startsWith('cairn_scoped_')) throw new Error(`not a scoped token: ${token}`);
  return { url: body.url, token };
}

/** What an attach snippet launches, whatever the runtime's file format. */
export interface Launch {
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** claude-code's `type`, openclaw's `transport`. */
  kind?: string;
}

const tomlLine = (snippet: string, key: string): string | undefined =>
  new RegExp(`^${key} = (.+)$`, 'm').exec(snippet)?.[1];

/** Reads a codex `{ "K" = "V" }` inline table of strings. */
function tomlTable(text: string): Record<string, string> {
  const m = /^\{ (.*) \}$/.exec(text);
  if (m?.[1] === undefined) throw new Error(`not an inline table: ${text}`);
  const out: Record<string, string> = {};
  for (const pair of m[1].matchAll(/("(?:[^"\\]|\\.)*") = ("(?:[^"\\]|\\.)*")/g)) {
    out[JSON.parse(pair[1] ?? '""') as string] = JSON.parse(pair[2] ?? '""') as string;
  }
  return out;
}

/**
 * Parses an attach snippet: JSON.parse for the JSON runtimes; for codex, checks the
 * `[mcp_servers.cairn-tasks]` table line by line. Throws when the shape is wrong.
 */
export function parseSnippet(runtime: string, format: string, snippet: string): Launch {
  if (runtime === 'codex') {
    if (format !== 'toml') throw new Error(`codex snippet format is ${format}`);
    const lines = snippet.trimEnd().split('\n');
    if (lines[0] !== '[mcp_servers.cairn-tasks]') throw new Error(`bad table header: ${lines[0]}`);
    for (const line of lines.slice(1)) {
      if (!/^(url|http_headers|command|args|env) = \S/.test(line)) {
        throw new Error(`unexpected TOML line: ${line}`);
      }
    }
    const launch: Launch = {};
    const url = tomlLine(snippet, 'url');
    if (url !== undefined) launch.url = JSON.parse(url) as string;
    const headers = tomlLine(snippet, 'http_headers');
    if (headers !== undefined) launch.headers = tomlTable(headers);
    const command = tomlLine(snippet, 'command');
    if (command !== undefined) launch.command = JSON.parse(command) as string;
    const args = tomlLine(snippet, 'args');
    if (args !== undefined) {
      if (!/^\[.*\]$/.test(args)) throw new Error(`args is not an array: ${args}`);
      launch.args = JSON.parse(args) as string[];
    }
    const env = tomlLine(snippet, 'env');
    if (env !== undefined) launch.env = tomlTable(env);
    return launch;
  }
  if (format !== 'json') throw new Error(`${runtime} snippet format is ${format}`);
  const doc = JSON.parse(snippet) as {
    mcpServers?: Record<string, Record<string, unknown>>;
    mcp?: { servers?: Record<string, Record<string, unknown>> };
  };
  const servers = runtime === 'openclaw' ? doc.mcp?.servers : doc.mcpServers;
  const entry = servers?.['cairn-tasks'];
  if (entry === undefined) throw new Error(`no cairn-tasks entry in ${snippet}`);
  const { type, transport, ...rest } = entry;
  const kind = type ?? transport;
  return { ...(rest as Launch), ...(typeof kind === 'string' ? { kind } : {}) };
}

export interface ServeProcess {
  child: ChildProcess;
  home: TempDir;
  port: number;
  base: string;
  /** The PostgreSQL database it serves (postgres project), else undefined (a SQLite file). */
  dbUrl: string | undefined;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** Kills the process if still running and removes CAIRN_HOME. */
  cleanup(): Promise<void>;
}

/** Waits for `promise` or rejects after `ms` with `what` in the message. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Spawns `node bin/cairn.js serve --port 0 ...args` with a temp CAIRN_HOME and waits for the
 * whole banner ("listening on http://127.0.0.1:PORT" … "API token: …").
 */
export async function spawnServe(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const home = tempDir('cairn-serve-');
  const dbAt = args.indexOf('--db');
  const backend = await processBackend(dbAt < 0 ? undefined : args[dbAt + 1], env);
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/cairn.js'), 'serve', '--port', '0', ...args],
    {
      cwd: ROOT,
      // CAIRN_IRC_PORT=0: no IRC listener unless a test asks (parallel serves share 6667).
      env: {
        ...process.env,
        CAIRN_HOME: home.path,
        CAIRN_LOG_LEVEL: 'warn',
        CAIRN_IRC_PORT: '0',
        ...backend.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => {
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const cleanup = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await within(10_000, 'serve process to die', exited).catch(() => undefined);
    }
    home.cleanup();
    await backend.cleanup();
  };
  try {
    const port = await within(
      20_000,
      'cairn serve to print its address',
      new Promise<number>((resolve, reject) => {
        const check = (): void => {
          // The banner's last line names the token file (or says auth is off).
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\n[^]*(API token|auth): .*\n/.exec(
            out,
          );
          if (m?.[1] !== undefined) resolve(Number(m[1]));
        };
        child.stdout.on('data', check);
        void exited.then((code) => reject(new Error(`serve exited early (${code}): ${err}`)));
        check();
      }),
    );
    return {
      child,
      home,
      port,
      base: `http://127.0.0.1:${port}`,
      dbUrl: (env['CAIRN_DB_URL'] ?? backend.env['CAIRN_DB_URL']) || undefined,
      stdout: () => out,
      stderr: () => err,
      exited,
      cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

/** A dashboard session on `svc`: mints a one-time code with the master token and redeems it. */
export async function loginSession(svc: Running): Promise<{ cookie: string; csrf: string }> {
  const minted = await fetch(`${svc.base}/api/auth/login-codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const { code } = (await minted.json()) as { code: string };
  const res = await fetch(`${svc.base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ code }),
  });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '', csrf: csrfToken };
}
