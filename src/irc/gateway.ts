// The IRC gateway: a TCP (or TLS) listener whose clients are registered backplane agents.
// Built from a core; listening is the caller's choice. Holds no module state: every gateway
// owns its connections, relay and timers, and `close` ends them all.
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

import type { Core } from '../core/index.js';
import { leaveLocally } from './channel-commands.js';
import { dispatch } from './commands.js';
import { Connection, type ConnectionOptions } from './connection.js';
import { type IrcContext, nickKey } from './context.js';
import { DEFAULT_FLOOD, type FloodLimits } from './flood.js';
import { createRelay } from './relay.js';

export interface IrcGatewayOptions {
  /** Bind address. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 6667. */
  port?: number;
  /** PEM certificate chain and key: serve IRC over TLS. */
  tls?: { cert: string | Buffer; key: string | Buffer } | undefined;
  /** Server name in prefixes and numerics. Default `cairn.irc`. */
  serverName?: string;
  /** Network name (ISUPPORT NETWORK). Default `Cairn`. */
  network?: string;
  flood?: Partial<FloodLimits>;
  /** PING after this long idle; close after twice this. Default 60 s. */
  pingMs?: number;
  /** Close connections not registered within this long. Default 60 s. */
  registrationMs?: number;
  /** Connections open at once; more are refused. Default 1000. */
  maxConnections?: number;
  /** Bytes queued to a client that does not read before it is dropped. Default 1 MiB. */
  maxSendQueueBytes?: number;
}

export interface IrcGateway {
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<{ host: string; port: number; tls: boolean }>;
  /** Disconnects every client, stops delivery and stops listening (the core stays open). */
  close(): Promise<void>;
  /** Connections open now (registered or not). */
  connectionCount(): number;
}

/** Creates the IRC gateway over a core. */
export function createIrcGateway(core: Core, options: IrcGatewayOptions = {}): IrcGateway {
  const host = options.host ?? '127.0.0.1';
  const relay = createRelay(core.backplane, core.logger);
  const ctx: IrcContext = {
    ...{ core, logger: core.logger, createdAt: new Date(), byNick: new Map(), relay },
    ...{ serverName: options.serverName ?? 'cairn.irc', network: options.network ?? 'Cairn' },
  };
  const open = new Set<Connection>();
  const connOptions: ConnectionOptions = {
    serverName: ctx.serverName,
    flood: { ...DEFAULT_FLOOD, ...options.flood },
    pingMs: options.pingMs ?? 60_000,
    registrationMs: options.registrationMs ?? 60_000,
    maxSendQueueBytes: options.maxSendQueueBytes ?? 1024 * 1024,
    onMessage: (conn, msg) => dispatch(ctx, conn, msg),
    onClose: (conn) => closed(ctx, open, conn),
  };
  const maxConnections = options.maxConnections ?? 1000;
  const accept = (socket: Socket): void => {
    if (open.size >= maxConnections) {
      socket.end('ERROR :Closing link: [Too many connections]\r\n');
      return;
    }
    open.add(new Connection(socket, connOptions));
  };
  const server = createListener(options.tls, accept, core);
  return {
    listen: () => listen(server, host, options.port ?? 6667, options.tls !== undefined),
    async close() {
      relay.close();
      for (const conn of [...open]) conn.close('Server shutting down');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    connectionCount: () => open.size,
  };
}

function createListener(
  tls: IrcGatewayOptions['tls'],
  accept: (socket: Socket) => void,
  core: Core,
): Server {
  if (tls === undefined) return createTcpServer(accept);
  const server = createTlsServer({ cert: tls.cert, key: tls.key }, accept);
  server.on('tlsClientError', (err: Error) =>
    core.logger.debug({ err }, 'irc tls handshake failed'),
  );
  return server;
}

function listen(
  server: Server,
  host: string,
  port: number,
  tls: boolean,
): Promise<{ host: string; port: number; tls: boolean }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve({ host, port: typeof addr === 'object' && addr !== null ? addr.port : port, tls });
    });
  });
}

/** Forgets a closed connection: nick, delivery, presence; tells the channels it quit. */
function closed(ctx: IrcContext, open: Set<Connection>, conn: Connection): void {
  open.delete(conn);
  if (!conn.registered) return;
  if (ctx.byNick.get(nickKey(conn.target)) === conn) ctx.byNick.delete(nickKey(conn.target));
  const seen = new Set<Connection>();
  for (const name of [...conn.channels.keys()]) {
    leaveLocally(ctx, conn, name);
    for (const other of ctx.byNick.values()) {
      if (other.channels.has(name) && !seen.has(other)) {
        seen.add(other);
        other.send(conn.mask, 'QUIT', ['Client quit']);
      }
    }
  }
  conn.releasePresence?.();
  conn.releasePresence = undefined;
}
