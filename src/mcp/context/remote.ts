// The remote a hybrid context server forwards to: one SDK Client over Streamable HTTP to a
// `cairn serve`'s /api/mcp/context, opened on first use and reopened after a failure. Every
// wait is bounded (connect, call); a refused connection or a lost session is retried with
// backoff for any tool (nothing ran), a failed or timed-out call only for idempotent tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

import { DomainError } from '../../shared/index.js';
import { RpcError } from '../errors.js';
import { CONTEXT_AUTH_ERROR } from './caller.js';

export interface RemoteOptions {
  /** The remote's context endpoint (…/api/mcp/context). */
  url: URL;
  /** Sent as `Authorization: Bearer <token>` (the remote's API token or a context token). */
  token?: string | undefined;
  /** How long opening the session may take (default 5 s). */
  connectTimeoutMs?: number;
  /** How long one call may wait without progress (default 30 s). */
  callTimeoutMs?: number;
  /** Attempts per call, the first included (default 3). */
  attempts?: number;
  /** Wait before the second attempt, doubled after (default 250 ms). */
  backoffMs?: number;
  version: string;
  logger: Logger;
}

/** One forwarded call. */
export interface RemoteCall {
  name: string;
  args: Readonly<Record<string, unknown>>;
  meta: Readonly<Record<string, unknown>>;
  /** Safe to send again after a failure that may have reached the remote (read-only, idempotent). */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
}

export interface Remote {
  readonly url: string;
  /**
   * Calls the remote's tool and returns its result as it came (a tool error included).
   * @throws RemoteUnavailableError when it could not be reached within the bounds; RpcError with
   *   the remote's code for a JSON-RPC error it answered (-32001 for a refused token).
   */
  call(call: RemoteCall): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `_meta.denied.reason` of a forwarded call the remote could not answer. */
export const REMOTE_UNAVAILABLE = 'remote_unavailable';

/** The remote did not answer within the bounds (down, unreachable, or too slow). */
export class RemoteUnavailableError extends DomainError {
  constructor(message: string) {
    super(REMOTE_UNAVAILABLE, message, { denied: REMOTE_UNAVAILABLE });
  }
}

/** A failure of one attempt: whether nothing reached the remote, and what happened. */
class AttemptFailed extends Error {
  constructor(
    readonly notSent: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** The plain cause of a network failure (`ECONNREFUSED 127.0.0.1:4870`, `HTTP 502`, …). */
function causeOf(err: unknown): string {
  if (err instanceof StreamableHTTPError) return `HTTP ${String(err.code)}`;
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string')
    return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`;
  return err instanceof Error ? err.message : String(err);
}

const stripPrefix = (message: string): string => message.replace(/^MCP error -?\d+: /, '');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Creates the remote; nothing connects until the first call. */
export function createRemote(options: RemoteOptions): Remote {
  const connectMs = options.connectTimeoutMs ?? 5000;
  const callMs = options.callTimeoutMs ?? 30_000;
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 250;
  const url = options.url.href;
  const headers: Record<string, string> =
    options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` };
  let open: Promise<Client> | undefined;
  let live: Client | undefined;

  const drop = (): void => {
    const was = open;
    open = undefined;
    live = undefined;
    void was?.then((c) => c.close()).catch(() => undefined);
  };

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'cairn-context-forwarder', version: options.version });
    const transport = new StreamableHTTPClientTransport(options.url, {
      requestInit: { headers },
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    });
    // A broken stream (the remote went away) means the next call opens a new session.
    client.onerror = (err) => {
      options.logger.debug({ err, url }, 'context remote stream failed');
      if (live === client) drop();
    };
    try {
      await client.connect(transport, {
        timeout: connectMs,
        signal: AbortSignal.timeout(connectMs),
      });
    } catch (err) {
      await client.close().catch(() => undefined);
      if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403)) {
        throw new RpcError(
          CONTEXT_AUTH_ERROR,
          `the remote ${url} refused the token (HTTP ${err.code}): pass its API token or a token from \`cairn token mint\` there, with --token or CAIRN_CONTEXT_TOKEN`,
        );
      }
      throw new AttemptFailed(true, `could not connect: ${causeOf(err)}`);
    }
    live = client;
    return client;
  }

  /** One attempt: the session (opened if needed), then the call with its own timer. */
  async function attempt(call: RemoteCall): Promise<CallToolResult> {
    const client = await (open ??= connect().catch((err: unknown) => {
      open = undefined;
      throw err;
    }));
    const timer = new AbortController();
    let timeout: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timeout);
      timeout = setTimeout(() => timer.abort(), callMs);
    };
    arm();
    const signal =
      call.signal === undefined ? timer.signal : AbortSignal.any([timer.signal, call.signal]);
    try {
      return (await client.callTool(
        { name: call.name, arguments: { ...call.args }, _meta: { ...call.meta } },
        CallToolResultSchema,
        {
          signal,
          // The SDK's own timer stays out of the way: ours resets on progress.
          timeout: 24 * 3600_000,
          onprogress: (p) => {
            arm();
            call.onProgress?.(p);
          },
        },
      )) as CallToolResult;
    } catch (err) {
      const answered = err instanceof McpError && err.code !== ErrorCode.ConnectionClosed;
      if (answered && !timer.signal.aborted && call.signal?.aborted !== true) {
        throw new RpcError(err.code, stripPrefix(err.message));
      }
      if (call.signal?.aborted === true) throw err;
      drop();
      if (timer.signal.aborted) throw new AttemptFailed(false, `no answer within ${callMs} ms`);
      // The session is gone (the remote restarted): nothing ran, a new session is safe.
      const lost = err instanceof StreamableHTTPError && err.code === 404;
      throw new AttemptFailed(
        lost,
        lost ? 'the remote forgot the session (restarted)' : causeOf(err),
      );
    } finally {
      clearTimeout(timeout);
    }
  }

  return {
    url,
    async call(call) {
      const started = Date.now();
      let last = '';
      let note = '';
      for (let i = 0; i < attempts; i++) {
        if (i > 0) await sleep(backoffMs * 2 ** (i - 1));
        try {
          return await attempt(call);
        } catch (err) {
          if (!(err instanceof AttemptFailed)) throw err;
          last = err.message;
          if (!err.notSent && !call.idempotent) {
            note = `; ${call.name} was not retried: it may have run`;
            break;
          }
        }
      }
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      throw new RemoteUnavailableError(
        `the remote ${url} did not answer ${call.name}: ${last} (gave up after ${secs} s${note}). Check that cairn serve runs there; the next call reconnects.`,
      );
    },
    async close() {
      const was = open;
      open = undefined;
      live = undefined;
      await was?.then((c) => c.close()).catch(() => undefined);
    },
  };
}
