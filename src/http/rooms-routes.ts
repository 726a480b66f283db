// REST views of rooms for the dashboard: `GET /api/rooms` (team rooms and channels),
// `GET /api/rooms/:room/posts` (one page), `GET /api/rooms/:room/stream` (Server-Sent Events,
// resumable by Last-Event-ID) and `POST /api/rooms/:room/posts` (a human's post: author `user`,
// kind `user`; team rooms only). Auth, CSRF and the Host check happen before.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Core } from '../core/index.js';
import { roomPageQuery, roomPostBody } from '../rooms/index.js';
import { NotFoundError } from '../shared/index.js';
import { HttpError, readBody, sendJson } from './respond.js';
import { listRooms, type RoomFeed, roomFeed } from './room-feeds.js';
import { resumeFrom, streamFeed } from './sse.js';

export interface RoomsRouteOptions {
  core: Core;
  /** A comment line is sent after this long without a post. Default 15 s. */
  keepAliveMs?: number | undefined;
}

const ROUTE = /^\/api\/rooms\/([^/]+)\/(posts|stream)\/?$/;
const NOT_A_ROOM = 'a room is named team:<teamId> or #<channel>';

/** The author of every post made through this route. */
export const HUMAN_AUTHOR = 'user';

async function feedOf(core: Core, segment: string): Promise<RoomFeed> {
  let room: string;
  try {
    room = decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, NOT_A_ROOM);
  }
  const feed = await roomFeed(core, room);
  if (feed === undefined) throw new HttpError(404, NOT_A_ROOM);
  return feed;
}

function pageQuery(url: URL): { sinceSeq: number; limit: number } {
  const query = roomPageQuery.safeParse(Object.fromEntries(url.searchParams));
  if (query.success) return query.data;
  const issue = query.error.issues[0];
  throw new HttpError(400, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

async function postText(req: IncomingMessage): Promise<string> {
  let json: unknown;
  try {
    json = JSON.parse(await readBody(req, 64 * 1024)) as unknown;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(400, 'body must be JSON: { "text": "…" }');
  }
  const body = roomPostBody.safeParse(json);
  if (!body.success) throw new HttpError(400, `text: ${body.error.issues[0]?.message ?? ''}`);
  if (body.data.text.trim() === '') throw new HttpError(400, 'text: must not be empty');
  return body.data.text;
}

async function post(req: IncomingMessage, res: ServerResponse, core: Core, feed: RoomFeed) {
  if (!feed.team) {
    req.resume();
    throw new HttpError(405, 'the page posts into team rooms only; use /v1 for channels');
  }
  const text = await postText(req);
  const roomId = feed.roomId;
  const p = await core.rooms.post({ roomId, authorAgentId: HUMAN_AUTHOR, kind: 'user', text });
  sendJson(res, 201, {
    posted: { seq: p.seq, roomId, authorAgentId: p.authorAgentId, kind: p.kind },
  });
}

function stream(req: IncomingMessage, res: ServerResponse, feed: RoomFeed, o: RoomsRouteOptions) {
  const { sinceSeq, limit } = pageQuery(new URL(req.url ?? '/', 'http://localhost'));
  return streamFeed(req, res, {
    label: `room ${feed.roomId}`,
    event: 'post',
    cursor: resumeFrom(req, sinceSeq),
    limit,
    keepAliveMs: o.keepAliveMs ?? 15_000,
    read: async (cursor) => feed.read(cursor, limit),
    wait: (cursor, timeoutMs, signal) => feed.wait(cursor, timeoutMs, signal),
    seqOf: (item) => item.seq,
    dataOf: (item) => item,
    onError: (err) => o.core.logger.warn({ err, room: feed.roomId }, 'room stream ended'),
  });
}

async function dispatch(req: IncomingMessage, res: ServerResponse, url: URL, o: RoomsRouteOptions) {
  const method = req.method ?? 'GET';
  if (url.pathname.replace(/\/$/, '') === '/api/rooms') {
    if (method !== 'GET') throw new HttpError(405, `method ${method} not allowed`);
    return sendJson(res, 200, { rooms: await listRooms(o.core) });
  }
  const match = ROUTE.exec(url.pathname);
  const feed = await feedOf(o.core, match?.[1] ?? '');
  if (match?.[2] === 'posts' && method === 'POST') return post(req, res, o.core, feed);
  if (method !== 'GET') throw new HttpError(405, `method ${method} not allowed`);
  if (match?.[2] === 'stream') return stream(req, res, feed, o);
  const { sinceSeq, limit } = pageQuery(url);
  const page = await feed.read(sinceSeq, limit);
  return sendJson(res, 200, { posts: page.items, nextSeq: page.nextSeq });
}

/**
 * Serves `/api/rooms` and `/api/rooms/:room/(posts|stream)`; false when the path is not one.
 * `:room` is `team:<teamId>` or `#<channel>`, URL-encoded or not. Readers see every post.
 */
export async function handleRoomsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: RoomsRouteOptions,
): Promise<boolean> {
  if (!/^\/api\/rooms\/?$/.test(url.pathname) && !ROUTE.test(url.pathname)) return false;
  try {
    await dispatch(req, res, url, options);
  } catch (err) {
    const status = err instanceof HttpError ? err.status : err instanceof NotFoundError ? 404 : 0;
    if (status === 0) throw err;
    req.resume();
    const allow = status === 405 ? { allow: 'GET, POST' } : undefined;
    sendJson(res, status, { error: 'invalid request', message: (err as Error).message }, allow);
  }
  return true;
}
