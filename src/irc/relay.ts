// Delivers channel history to IRC: one follower per channel that has a joined connection,
// reading the backplane in seq order and waiting on the rooms watcher between pages (posts made
// by other processes arrive within one poll interval, at once from any replica on PostgreSQL).
// Stops when the last member leaves.
import type { Logger } from 'pino';

import type { Backplane, Message } from '../backplane/index.js';
import type { Connection } from './connection.js';
import type { RelayHandle } from './context.js';
import { nickKey } from './context.js';
import { userMask } from './protocol.js';
import { isPlainText, renderMessage } from './render.js';

const PAGE = 100;
const WAIT_MS = 30_000;
const RETRY_MS = 1000;

interface Follower {
  conns: Set<Connection>;
  abort: AbortController;
}

export interface Relay extends RelayHandle {
  /** Stops every follower. */
  close(): void;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Sends one message to one connection, unless it joined later or it is its own line. */
function deliverTo(conn: Connection, m: Message): void {
  const joined = conn.channels.get(m.channel);
  if (joined === undefined || m.seq <= joined.since) return;
  // As on any IRC server, a client's own text lines are not echoed back to it.
  if (isPlainText(m) && nickKey(m.envelope.from) === nickKey(conn.nick ?? '')) return;
  const tags: Record<string, string> = {};
  if (conn.caps.has('server-time')) tags['time'] = m.envelope.ts;
  if (conn.caps.has('message-tags')) tags['msgid'] = m.envelope.id;
  const prefix = userMask(m.envelope.from);
  for (const line of renderMessage(m))
    conn.send(prefix, line.command, [m.channel, line.text], tags);
}

/** Reads `channel` from `since` on and hands each message to the follower's connections. */
async function follow(
  backplane: Backplane,
  logger: Logger,
  channel: string,
  f: Follower,
  since: number,
): Promise<void> {
  let cursor = since;
  const { signal } = f.abort;
  while (!signal.aborted) {
    try {
      const page = await backplane.readSince(channel, cursor, PAGE);
      for (const m of page.messages) for (const conn of f.conns) deliverTo(conn, m);
      cursor = page.nextSeq;
      if (page.messages.length === 0) {
        await backplane.waitForMessage(channel, cursor, WAIT_MS, signal);
      }
    } catch (err) {
      if (signal.aborted) return;
      logger.warn({ err, channel }, 'irc relay read failed; retrying');
      await sleep(RETRY_MS, signal);
    }
  }
}

/** Creates the relay over the backplane. */
export function createRelay(backplane: Backplane, logger: Logger): Relay {
  const followers = new Map<string, Follower>();

  return {
    add(channel, conn) {
      const existing = followers.get(channel);
      if (existing !== undefined) {
        existing.conns.add(conn);
        return;
      }
      const f: Follower = { conns: new Set([conn]), abort: new AbortController() };
      followers.set(channel, f);
      void follow(backplane, logger, channel, f, conn.channels.get(channel)?.since ?? 0);
    },
    remove(channel, conn) {
      const f = followers.get(channel);
      if (f === undefined) return;
      f.conns.delete(conn);
      if (f.conns.size > 0) return;
      f.abort.abort();
      followers.delete(channel);
    },
    close() {
      for (const f of followers.values()) f.abort.abort();
      followers.clear();
    },
  };
}
