// REST views of a team room for the dashboard: `GET /api/rooms/:room/posts` (one page) and
// `GET /api/rooms/:room/stream` (the same posts as Server-Sent Events, resumable by
// Last-Event-ID). Auth and the Host check happen before; nothing here touches the store.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Core } from '../core/index.js';
import { isValidId, type RoomPage, roomPageQuery, teamOfRoom } from '../rooms/index.js';
import { sendJson } from './respond.js';

export interface RoomsRouteOptions {
  core: Core;
  /** A comment line is sent after this long without a post. Default 15 s. */
  keepAliveMs?: number | undefined;
}

const ROUTE = /^\/api\/rooms\/([^/]+)\/(posts|stream)\/?$/;

function roomOf(segment: string): string | undefined {
  let room: string;
  try {
    room = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  const team = teamOfRoom(room);
  return team !== undefined && isValidId(team) ? room : undefined;
}

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

async function stream(
  req: IncomingMessage,
  res: ServerResponse,
  page: { roomId: string; sinceSeq: number; limit: number },
  options: RoomsRouteOptions,
): Promise<void> {
  const { rooms, logger } = options.core;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
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
  let cursor = resumeFrom(req, page.sinceSeq);
  try {
    await send(res, `retry: 2000\n: room ${page.roomId}\n\n`, abort.signal);
    while (!abort.signal.aborted) {
      const got: RoomPage = await rooms.read({ ...page, sinceSeq: cursor });
      for (const post of got.posts) {
        await send(
          res,
          `id: ${post.seq}\nevent: post\ndata: ${JSON.stringify(post)}\n\n`,
          abort.signal,
        );
      }
      cursor = got.nextSeq;
      if (got.posts.length === page.limit) continue;
      const changed = await rooms.waitForPost(page.roomId, cursor, keepAliveMs, abort.signal);
      if (!changed && !abort.signal.aborted) await send(res, ': keep-alive\n\n', abort.signal);
    }
  } catch (err) {
    if (!abort.signal.aborted) logger.warn({ err, room: page.roomId }, 'room stream ended');
  } finally {
    req.off('close', stop);
    res.off('close', stop);
    res.end();
  }
}

/**
 * Serves `/api/rooms/:room/(posts|stream)`; returns false when the path is not a rooms route.
 * `:room` is `team:<teamId>` (URL-encoded or not). Readers see every post (no echo guard).
 */
export async function handleRoomsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: RoomsRouteOptions,
): Promise<boolean> {
  const match = ROUTE.exec(url.pathname);
  if (match === null) return false;
  if (req.method !== 'GET') {
    sendJson(res, 405, { error: `method ${req.method ?? ''} not allowed` }, { allow: 'GET' });
    return true;
  }
  const roomId = roomOf(match[1] ?? '');
  if (roomId === undefined) {
    sendJson(res, 404, { error: 'not found', message: 'a room is named team:<teamId>' });
    return true;
  }
  const query = roomPageQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) {
    const issue = query.error.issues[0];
    sendJson(res, 400, {
      error: 'invalid query',
      message: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    });
    return true;
  }
  const page = { roomId, ...query.data };
  if (match[2] === 'stream') await stream(req, res, page, options);
  else sendJson(res, 200, await options.core.rooms.read(page));
  return true;
}
