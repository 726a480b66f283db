// Server-Sent Events for a sequenced feed (room posts, channel messages): pages from a cursor,
// waits for news with keep-alive comments, resumes by Last-Event-ID, and stops when the client
// leaves. It reads only through the feed it is given; routing and auth happen before.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isoTimes } from '../shared/index.js';

/** The resume point: a numeric Last-Event-ID header wins over `sinceSeq`. */
export function resumeFrom(req: IncomingMessage, sinceSeq: number): number {
  const header = req.headers['last-event-id'];
  const n = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
  return n ?? sinceSeq;
}

/** Writes, then waits for `drain` when the socket buffer is full (or the client leaves). */
export async function send(res: ServerResponse, chunk: string, signal: AbortSignal): Promise<void> {
  if (res.write(chunk) || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface SseFeed<T> {
  /** Named in the opening comment (`room team:t1`, `channel #general`). */
  label: string;
  /** The `event:` field of every item. */
  event: string;
  /** Where to start (see `resumeFrom`). */
  cursor: number;
  /** A page this full is followed at once by the next, without waiting. */
  limit: number;
  /** A keep-alive comment is sent after this long without an item. */
  keepAliveMs: number;
  read(cursor: number): Promise<{ items: readonly T[]; nextSeq: number }>;
  /** Resolves true when something after `cursor` may have arrived, false on timeout. */
  wait(cursor: number, timeoutMs: number, signal: AbortSignal): Promise<boolean>;
  seqOf(item: T): number;
  dataOf(item: T): unknown;
  /** Called when the stream fails while the client is still there. */
  onError(err: unknown): void;
}

/** Streams `feed` as Server-Sent Events until the client disconnects; then ends the response. */
export async function streamFeed<T>(
  req: IncomingMessage,
  res: ServerResponse,
  feed: SseFeed<T>,
): Promise<void> {
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  req.once('close', stop);
  res.once('close', stop);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let cursor = feed.cursor;
  try {
    await send(res, `retry: 2000\n: ${feed.label}\n\n`, abort.signal);
    while (!abort.signal.aborted) {
      const page = await feed.read(cursor);
      for (const item of page.items) {
        const data = JSON.stringify(isoTimes(feed.dataOf(item)));
        await send(
          res,
          `id: ${feed.seqOf(item)}\nevent: ${feed.event}\ndata: ${data}\n\n`,
          abort.signal,
        );
      }
      cursor = page.nextSeq;
      if (page.items.length === feed.limit) continue;
      const changed = await feed.wait(cursor, feed.keepAliveMs, abort.signal);
      if (!changed && !abort.signal.aborted) await send(res, ': keep-alive\n\n', abort.signal);
    }
  } catch (err) {
    if (!abort.signal.aborted) feed.onError(err);
  } finally {
    req.off('close', stop);
    res.off('close', stop);
    res.end();
  }
}
