// Tools-server test helpers: a core whose broker is configured per test (env, clock, short
// timings), SDK clients over linked in-memory transports, the `cairn` CLI run as a second OS
// process, and a loopback stub standing in for the Tavily API.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import {
  type Approval,
  type AuditEntry,
  type BrokerConfig,
  type BrokerOptions,
  createBroker,
} from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { createToolsServer, type ToolsBinding } from '../../src/mcp/index.js';
import { backendEnv, linkedClient, ROOT, tempCore } from '../helpers.js';

export const CLI = join(ROOT, 'bin/cairn.js');

/** Fast defaults: approvals poll every 20 ms and report progress every 50 ms. */
export const FAST: Partial<BrokerConfig> = { approvalPollMs: 20, progressEveryMs: 50 };

export interface ToolsHarness {
  core: Core;
  dbPath: string;
  connect(binding?: ToolsBinding): Promise<Client>;
}

/**
 * Opens fresh databases with a per-test broker, and Tavily stubs; `closeAll` in afterEach
 * closes and removes everything, newest first.
 */
export function toolsHarness(): {
  open(options?: BrokerOptions): Promise<ToolsHarness>;
  stub(options?: TavilyStubOptions): Promise<TavilyStub>;
  closeAll(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async open(options = {}) {
      const t = await tempCore({ embedder: null });
      cleanups.push(t.close);
      const broker = createBroker(t.core.store, {
        ...options,
        config: { ...FAST, ...options.config },
      });
      const core: Core = { ...t.core, broker };
      const connect = async (binding: ToolsBinding = {}): Promise<Client> => {
        const client = await linkedClient(createToolsServer(core, binding));
        cleanups.push(() => client.close());
        return client;
      };
      return { core, dbPath: t.core.dbPath, connect };
    },
    async stub(options) {
      const stub = await tavilyStub(options);
      cleanups.push(() => stub.close());
      return stub;
    },
    async closeAll() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}

/** Polls until the broker has a pending approval (optionally for `tool`); returns it. */
export async function pendingApproval(core: Core, tool?: string): Promise<Approval> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await core.broker.listApprovals({ status: 'pending' });
    const found = rows.find((a) => tool === undefined || a.tool === tool);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('no pending approval appeared');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every audit row of one call, oldest first. */
export async function auditOf(core: Core, callId: string): Promise<AuditEntry[]> {
  const page = await core.broker.listAudit({ callId, limit: 500 });
  return page.entries.reverse();
}

/**
 * A call's trail once its `result` row is written (bounded). A waiting call that gives up
 * closes its approval first and commits the trail that says why just after, so a reader quick
 * enough to see the row cancelled can still be ahead of the trail.
 */
export async function finishedTrail(core: Core, callId: string): Promise<AuditEntry[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await auditOf(core, callId);
    if (rows.some((r) => r.step === 'result')) return rows;
    if (Date.now() > deadline) throw new Error(`call ${callId} has no result row in its trail`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The (step, outcome) pairs of the newest call, oldest first. */
export async function lastCallSteps(core: Core): Promise<Array<[string, string]>> {
  const newest = (await core.broker.listAudit({ step: 'result', limit: 1 })).entries[0];
  if (newest?.callId === undefined || newest.callId === null) throw new Error('no calls');
  return (await auditOf(core, newest.callId)).map((e) => [e.step, e.outcome]);
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `cairn` CLI as its own OS process against `db`. */
export function runCli(db: string, args: readonly string[], home?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args, '--db', db],
      {
        cwd: ROOT,
        env: {
          PATH: process.env['PATH'] ?? '',
          CAIRN_HOME: home ?? join(db, '..', 'home'),
          ...backendEnv(db),
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface StubRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface TavilyStub {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

export interface TavilyStubOptions {
  delayMs?: number;
  status?: number;
}

/** A loopback HTTP server that answers like Tavily's POST /search (or stalls for `delayMs`). */
export async function tavilyStub(options: TavilyStubOptions = {}): Promise<TavilyStub> {
  const requests: StubRequest[] = [];
  const server: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown;
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = (): void => {
        res.writeHead(options.status ?? 200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            query: 'q',
            results: [
              {
                title: 'Cairn',
                url: 'https://example.com/cairn',
                content: 'A stack of stones.',
                score: 0.9,
              },
            ],
          }),
        );
      };
      if (options.delayMs === undefined) answer();
      else setTimeout(answer, options.delayMs).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
