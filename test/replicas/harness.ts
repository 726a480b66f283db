// Three real `cairn serve` replicas on one fresh PostgreSQL database, each on its own loopback
// port with its own CAIRN_HOME holding the same API token and server secret (one credential
// works on all), plus the test proxy in front. SDK clients are pinned to a replica or go
// through the proxy. `dispose` closes clients, kills every replica and drops the database.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { type Core, createCore } from '../../src/core/index.js';
import { API_TOKEN_FILE, SECRET_FILE } from '../../src/http/index.js';
import type { McpServerName } from '../../src/mcp/index.js';
import { REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { silentLogger, tempDir } from '../helpers.js';
import { SECRET, type ServeProcess, spawnServe, TOKEN, within } from '../http/helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';
import { type Proxy, type ProxyMode, startProxy } from './proxy.js';

/** Quiet, model-free replicas; approvals re-read every 20 ms (until LISTEN/NOTIFY wakes them). */
const REPLICA_ENV = {
  CAIRN_LOG_LEVEL: 'info',
  CAIRN_EMBEDDINGS: 'none',
  CAIRN_APPROVAL_POLL_MS: '20',
  CAIRN_APPROVAL_PROGRESS_MS: '50',
};

export interface Replica {
  /** Its CAIRN_REPLICA_ID: r0, r1, r2. */
  readonly id: string;
  /** http://127.0.0.1:PORT */
  readonly base: string;
  readonly pid: number;
  alive(): boolean;
  stderr(): string;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface ReplicaSet {
  readonly replicas: readonly Replica[];
  readonly proxy: Proxy;
  readonly dbUrl: string;
  /** An SDK client on `server`, at `base` (a replica's or the proxy's); closed by dispose. */
  connect(base: string, server: McpServerName, name?: string): Promise<Client>;
  /** A REST call with the master token at `base`; the parsed JSON answer and status. */
  rest(base: string, method: string, path: string, body?: unknown): Promise<RestAnswer>;
  /** Runs `fn` on an in-process core over the same database, then closes it. */
  withCore<T>(fn: (core: Core) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

export interface RestAnswer {
  status: number;
  body: Record<string, unknown>;
}

function replicaOf(id: string, serve: ServeProcess): Replica {
  let alive = true;
  void serve.exited.then(() => (alive = false));
  const pid = serve.child.pid;
  if (pid === undefined) throw new Error(`replica ${id} has no pid`);
  return {
    id,
    base: serve.base,
    pid,
    alive: () => alive,
    stderr: serve.stderr,
    async kill() {
      serve.child.kill('SIGKILL');
      await within(10_000, `replica ${id} to die`, serve.exited);
    },
  };
}

/** Starts one replica with its own home holding the shared token and secret. */
async function startReplica(
  id: string,
  dbUrl: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
) {
  const home = tempDir(`cairn-replica-${id}-`);
  writeFileSync(join(home.path, API_TOKEN_FILE), `${TOKEN}\n`, { mode: 0o600 });
  writeFileSync(join(home.path, SECRET_FILE), `${SECRET}\n`, { mode: 0o600 });
  const serve = await spawnServe([...args], {
    ...REPLICA_ENV,
    ...env,
    CAIRN_HOME: home.path,
    CAIRN_DB_URL: dbUrl,
    CAIRN_REPLICA_ID: id,
  });
  return { serve, home };
}

/**
 * Starts `count` (default 3) replicas on a fresh database and the proxy (`mode`, default round
 * robin), each with `args` and `env` added. Needs CAIRN_TEST_PG_URL; the suites run on the
 * postgres project only.
 */
export async function startReplicas(
  options: {
    count?: number;
    mode?: ProxyMode;
    args?: readonly string[];
    env?: Readonly<Record<string, string>>;
  } = {},
): Promise<ReplicaSet> {
  const adminUrl = pgAdminUrl();
  if (adminUrl === undefined) throw new Error('the replica suites need CAIRN_TEST_PG_URL');
  const db = await freshPgDatabase(adminUrl);
  const cleanups: (() => Promise<void>)[] = [db.drop];
  const clients: Client[] = [];
  const dispose = async (): Promise<void> => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
  };
  try {
    const ids = Array.from({ length: options.count ?? 3 }, (_, i) => `r${i}`);
    const started = await Promise.all(
      ids.map(async (id) => {
        const s = await startReplica(id, db.url, options.args ?? [], options.env ?? {});
        cleanups.push(async () => {
          await s.serve.cleanup();
          s.home.cleanup();
        });
        return { id, serve: s.serve };
      }),
    );
    const replicas = started.map(({ id, serve }) => replicaOf(id, serve));
    const upstreams = started.map(({ id, serve }) => ({ replica: id, port: serve.port }));
    const proxy = await startProxy(upstreams, options.mode ?? 'round-robin');
    cleanups.push(() => proxy.close());
    return {
      replicas,
      proxy,
      dbUrl: db.url,
      async connect(base, server, name = 'cairn-replica-test') {
        const client = new Client({ name, version: '0.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/${server}`), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        });
        await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
        clients.push(client);
        return client;
      },
      rest: (base, method, path, body) => rest(base, method, path, body),
      async withCore(fn) {
        const core = await createCore({ dbUrl: db.url, logger: silentLogger });
        try {
          return await fn(core);
        } finally {
          await core.close();
        }
      },
      dispose,
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}

async function rest(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? {} : JSON.parse(text)) as RestAnswer['body'] };
}
