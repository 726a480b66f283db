// A small HTTP load balancer for the replica tests, on 127.0.0.1: per-request round robin over
// the replicas, or sticky (a request whose Mcp-Session-Id names a replica goes to it). Bodies
// and SSE stream through untouched in both directions; the Host header is the upstream's, as
// nginx's proxy_pass sets it. It records where each request went; it never asserts.
import {
  createServer,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { issuingReplica } from '../../src/http/replica.js';

export type ProxyMode = 'round-robin' | 'sticky';

export interface Upstream {
  /** The replica's id (CAIRN_REPLICA_ID), the prefix of the session ids it issues. */
  replica: string;
  port: number;
}

export interface Routed {
  replica: string;
  method: string;
  path: string;
  session: string | undefined;
}

export interface Proxy {
  /** http://127.0.0.1:PORT */
  readonly base: string;
  mode: ProxyMode;
  /** Where requests went, oldest first (the last ROUTED_CAP only). */
  readonly routed: readonly Routed[];
  close(): Promise<void>;
}

const ROUTED_CAP = 10_000;
/** No upstream exchange lasts longer (a long-poll waits at most 30 s). */
const UPSTREAM_TIMEOUT_MS = 120_000;

function sessionOf(req: IncomingMessage): string | undefined {
  const v = req.headers['mcp-session-id'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Pipes `req` to `to` and its answer back to `res`; a gone caller aborts the upstream call. */
function forward(req: IncomingMessage, res: ServerResponse, to: Upstream): void {
  const upstream = httpRequest(
    {
      host: '127.0.0.1',
      port: to.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: `127.0.0.1:${to.port}` },
      timeout: UPSTREAM_TIMEOUT_MS,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      // SSE: headers go out at once, each event as it arrives.
      res.flushHeaders();
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    },
  );
  upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
  upstream.on('error', (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'bad gateway', replica: to.replica, message: err.message }));
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/** Starts the proxy in front of `upstreams` (in `mode`, changeable later through `mode`). */
export async function startProxy(upstreams: readonly Upstream[], mode: ProxyMode): Promise<Proxy> {
  if (upstreams.length === 0) throw new Error('a proxy needs at least one upstream');
  const routed: Routed[] = [];
  let next = 0;
  const state = { mode };
  const pick = (session: string | undefined): Upstream => {
    const owner = session === undefined ? undefined : issuingReplica(session);
    const sticky = upstreams.find((u) => u.replica === owner);
    if (state.mode === 'sticky' && sticky !== undefined) return sticky;
    const chosen = upstreams[next % upstreams.length] as Upstream;
    next += 1;
    return chosen;
  };
  const server = createServer((req, res) => {
    const session = sessionOf(req);
    const to = pick(session);
    routed.push({ replica: to.replica, method: req.method ?? '', path: req.url ?? '', session });
    if (routed.length > ROUTED_CAP) routed.shift();
    forward(req, res, to);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      state.mode = m;
    },
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
