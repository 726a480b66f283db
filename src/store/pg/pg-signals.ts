// Store signals across replicas on PostgreSQL: `pg_notify` inside the sender's transaction (so
// it is delivered on commit), and ONE dedicated LISTEN connection per store feeding the
// in-process hub. After a drop it reconnects with backoff and wakes every subscriber once (a
// notification may have been missed meanwhile). Payloads are ids and sequence numbers only.
import pg from 'pg';

import { createSignalHub } from '../signal-hub.js';
import type { Queryable, SignalListener, Signals } from '../types.js';

/** The one PostgreSQL channel; the topic rides in the payload (`topic\npayload`). */
export const SIGNAL_CHANNEL = 'cairn_signals';

/** Longest pause between reconnection attempts, ms. */
const MAX_BACKOFF_MS = 5_000;

/** 100, 200, 400 … ms, capped, scaled by a random 0.5–1.5. */
const reconnectDelay = (attempt: number): number =>
  Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random());

export interface PgSignals extends Signals {
  /** Stops listening for good (the store is closing). */
  close(): Promise<void>;
}

/** The signals of the store on the database at `url` (connects on the first subscription). */
export function createPgSignals(url: string, onError?: (err: unknown) => void): PgSignals {
  const hub = createSignalHub();
  let client: pg.Client | undefined;
  let connecting = false;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  function dispatch(message: pg.Notification): void {
    const text = message.payload ?? '';
    const cut = text.indexOf('\n');
    if (message.channel !== SIGNAL_CHANNEL || cut < 0) return;
    hub.deliver(text.slice(0, cut), text.slice(cut + 1));
  }

  /** The connection broke (or never came up): retry later while someone listens. */
  function dropped(c: pg.Client, err?: unknown): void {
    if (client === c) client = undefined;
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    if (err !== undefined) onError?.(err);
    if (closed || retry !== undefined || hub.size() === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      ensure();
    }, reconnectDelay(attempt++));
    retry.unref();
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', dispatch);
    c.on('error', (err) => dropped(c, err));
    c.on('end', () => dropped(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (err) {
      connecting = false;
      dropped(c, err);
      return;
    }
    connecting = false;
    if (closed) return void c.end().catch(() => undefined);
    client = c;
    attempt = 0;
    // Whatever was sent before LISTEN took effect was not heard: every subscriber re-reads.
    hub.wakeAll();
  }

  function ensure(): void {
    if (closed || connecting || client !== undefined || retry !== undefined) return;
    connecting = true;
    void connect();
  }

  return {
    reach: 'database',
    async notify(tx: Queryable, topic: string, payload: string): Promise<void> {
      await tx.run('SELECT pg_notify(?, ?)', [SIGNAL_CHANNEL, `${topic}\n${payload}`]);
    },
    subscribe(topic: string, listener: SignalListener): () => void {
      const off = hub.subscribe(topic, listener);
      ensure();
      return off;
    },
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      retry = undefined;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
