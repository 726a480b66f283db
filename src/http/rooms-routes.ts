// REST views of a team room for the dashboard: `GET /api/rooms/:room/posts` (one page) and
// `GET /api/rooms/:room/stream` (the same posts as Server-Sent Events, resumable by
// Last-Event-ID). Auth and the Host check happen before; nothing here touches the store.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Core } from '../core/index.js';
import { isValidId, type RoomPage, roomPageQuery, teamOfRoom } from '../rooms/index.js';
import { sendJson } from './respond.js';
import { resumeFrom, streamFeed } from './sse.js';

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

function stream(
  req: IncomingMessage,
  res: ServerResponse,
  page: { roomId: string; sinceSeq: number; limit: number },
  options: RoomsRouteOptions,
): Promise<void> {
  const { rooms, logger } = options.core;
  return streamFeed(req, res, {
    label: `room ${page.roomId}`,
    event: 'post',
    cursor: resumeFrom(req, page.sinceSeq),
    limit: page.limit,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    read: async (cursor) => {
      const got: RoomPage = await rooms.read({ ...page, sinceSeq: cursor });
      return { items: got.posts, nextSeq: got.nextSeq };
    },
    wait: (cursor, timeoutMs, signal) => rooms.waitForPost(page.roomId, cursor, timeoutMs, signal),
    seqOf: (post) => post.seq,
    dataOf: (post) => post,
    onError: (err) => logger.warn({ err, room: page.roomId }, 'room stream ended'),
  });
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
