// One IRC client connection: bytes in → lines → a paced, strictly ordered command queue;
// lines out with a send-queue cap; keep-alive PINGs; close exactly once. It knows nothing of
// commands: `onMessage` (the gateway's dispatcher) decides what each line means.
import type { Socket } from 'node:net';

import type { Principal } from '../backplane/index.js';
import { createTokenBucket, type FloodLimits, type TokenBucket } from './flood.js';
import { createLineReader, type LineEvent } from './line-reader.js';
import { formatLine, type IrcMessage, parseLine, userMask } from './protocol.js';

export type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

export interface ConnectionOptions {
  serverName: string;
  flood: FloodLimits;
  /** Send a PING after this long without input; close after twice this. */
  pingMs: number;
  /** Close a connection that has not registered within this long. */
  registrationMs: number;
  /** Close a client that does not read its output once this many bytes are queued. */
  maxSendQueueBytes: number;
  onMessage(conn: Connection, msg: IrcMessage): Promise<void>;
  onClose(conn: Connection): void;
}

/** What a channel membership of this connection remembers. */
export interface Joined {
  /** Deliver only messages after this room seq (the top when the connection joined). */
  since: number;
}

/** Numerics whose last parameter is a token, not text (sent without the `:`). */
const TOKEN_NUMERICS = new Set(['004', '221', '324', '333']);
const TEXT_COMMANDS = new Set([
  'PRIVMSG',
  'NOTICE',
  'TOPIC',
  'PART',
  'QUIT',
  'CAP',
  'PING',
  'PONG',
]);

/** One client connection and its protocol state (filled in by the command handlers). */
export class Connection {
  readonly host: string;
  nick: string | undefined;
  username: string | undefined;
  realname = '';
  /** PASS argument, kept until registration completes. */
  pass: string | undefined;
  capNegotiating = false;
  readonly caps = new Set<string>();
  saslBuffer: string | undefined;
  saslFailures = 0;
  principal: AgentPrincipal | undefined;
  registered = false;
  readonly channels = new Map<string, Joined>();
  releasePresence: (() => void) | undefined;
  private readonly reader = createLineReader();
  private readonly bucket: TokenBucket;
  private readonly queue: LineEvent[] = [];
  private draining = false;
  private closed = false;
  private lastInput = Date.now();
  private throttleNoticeAt = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.host = socket.remoteAddress ?? 'unknown';
    this.bucket = createTokenBucket(options.flood);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
    this.timers.push(
      setTimeout(() => {
        if (!this.registered) this.close('Registration timed out');
      }, options.registrationMs),
      setInterval(() => this.keepAlive(), Math.max(50, Math.floor(options.pingMs / 2))),
    );
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The nick numerics are addressed to (`*` before one is known). */
  get target(): string {
    return this.nick ?? '*';
  }

  /** `nick!user@cairn` of this client (the host part is never the client's address). */
  get mask(): string {
    return userMask(this.target, this.username);
  }

  /** Writes one raw line (CRLF added). Closes the connection when its send queue overflows. */
  sendRaw(line: string): void {
    if (this.closed) return;
    if (this.socket.writableLength > this.options.maxSendQueueBytes) {
      this.close('SendQ exceeded');
      return;
    }
    this.socket.write(`${line}\r\n`);
  }

  /** Sends `:prefix COMMAND params…`; message texts always go as the trailing param. */
  send(
    prefix: string | undefined,
    command: string,
    params: readonly string[],
    tags?: Record<string, string>,
  ): void {
    const trailing = TEXT_COMMANDS.has(command);
    this.sendRaw(formatLine(prefix, command, params, { trailing, ...(tags && { tags }) }));
  }

  /** Sends a numeric reply from the server, addressed to this client. */
  reply(numeric: string, ...params: string[]): void {
    const line = formatLine(this.options.serverName, numeric, [this.target, ...params], {
      trailing: !TOKEN_NUMERICS.has(numeric),
    });
    this.sendRaw(line);
  }

  /** A NOTICE from the server to this client. */
  notice(text: string): void {
    this.send(this.options.serverName, 'NOTICE', [this.target, text]);
  }

  /** Sends ERROR and closes (once). */
  close(reason?: string): void {
    if (this.closed) return;
    if (reason !== undefined && this.socket.writable) {
      this.socket.write(`ERROR :Closing link: (${this.target}@${this.host}) [${reason}]\r\n`);
    }
    this.closed = true;
    this.queue.length = 0;
    for (const t of this.timers) clearTimeout(t);
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
    this.options.onClose(this);
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    this.lastInput = Date.now();
    for (const event of this.reader.push(chunk)) this.queue.push(event);
    if (this.queue.length > this.options.flood.maxBacklog) {
      this.close('Excess Flood');
      return;
    }
    void this.drain();
  }

  private keepAlive(): void {
    const idle = Date.now() - this.lastInput;
    if (idle > this.options.pingMs * 2)
      this.close(`Ping timeout: ${Math.round(idle / 1000)} seconds`);
    else if (idle > this.options.pingMs) this.send(undefined, 'PING', [this.options.serverName]);
  }

  /** Runs queued lines one at a time, in order, waiting for flood tokens. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.closed && this.queue.length > 0) {
        if (!this.bucket.tryTake()) {
          this.throttled();
          await new Promise((r) => setTimeout(r, this.bucket.waitMs()));
          continue;
        }
        const event = this.queue.shift();
        if (event !== undefined) await this.run(event);
      }
    } finally {
      this.draining = false;
    }
  }

  private throttled(): void {
    const now = Date.now();
    if (now - this.throttleNoticeAt < 10_000) return;
    this.throttleNoticeAt = now;
    const f = this.options.flood;
    this.notice(
      `flood control: slowing down (at most ${f.perSecond} lines/s after a burst of ${f.burst}; more than ${f.maxBacklog} waiting lines disconnects)`,
    );
  }

  private async run(event: LineEvent): Promise<void> {
    if (event.kind === 'too-long') {
      this.reply('417', 'Input line was too long');
      return;
    }
    const msg = parseLine(event.line);
    if (msg === undefined) return;
    await this.options.onMessage(this, msg);
  }
}
