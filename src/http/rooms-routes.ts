// REST views of rooms for the dashboard: `GET /api/rooms` (team rooms and channels),
// `GET /api/rooms/stream` (one `rooms` event per change of that list), `GET /api/rooms/:room/posts`
// (one page), `GET /api/rooms/:room/stream` (Server-Sent Events, resumable by Last-Event-ID) and
// `POST /api/rooms/:room/posts` (a human's post: author `user`, kind `user`; a team room or a
// channel). Auth, CSRF and the Host check happen before.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { BackplaneRefusalError } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { roomPageQuery, roomPostBody } from '../rooms/index.js';
import { InvalidInputError, NotFoundError } from '../shared/index.js';
import { type BoardWatch, streamBoard } from './board-stream.js';
import { HttpError, readBody, sendJson } from './respond.js';
import { listRooms, type RoomFeed, roomFeed } from './room-feeds.js';
import { resumeFrom, streamFeed } from './sse.js';

export interface RoomsRouteOptions {
  core: Core;
  /** The room-list poller behind `GET /api/rooms/stream` (see `createRoomsWatch`). */
  watch: BoardWatch;
  /** A comment line is sent after this long without a post. Default 15 s. */
  keepAliveMs?: number | undefined;
}

const ROUTE = /^\/api\/rooms\/([^/]+)\/(posts|stream)\/?$/;
const LIST = /^\/api\/rooms\/?$/;
const LIST_STREAM = /^\/api\/rooms\/stream\/?$/;
const NOT_A_ROOM = 'a room is named team:<teamId> or #<channel>';

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

async function post(req: IncomingMessage, res: ServerResponse, feed: RoomFeed) {
  const text = await postText(req);
  const posted = await feed.postAsHuman(text);
  sendJson(res, 201, { posted: { ...posted, roomId: feed.roomId } });
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
  const list = LIST.test(url.pathname);
  if (list || LIST_STREAM.test(url.pathname)) {
    if (method !== 'GET') throw new HttpError(405, `method ${method} not allowed`);
    if (list) return sendJson(res, 200, { rooms: await listRooms(o.core) });
    return streamBoard(req, res, o.watch, o.keepAliveMs ?? 15_000, 'rooms');
  }
  const match = ROUTE.exec(url.pathname);
  const feed = await feedOf(o.core, match?.[1] ?? '');
  if (match?.[2] === 'posts' && method === 'POST') return post(req, res, feed);
  if (method !== 'GET') throw new HttpError(405, `method ${method} not allowed`);
  if (match?.[2] === 'stream') return stream(req, res, feed, o);
  const { sinceSeq, limit } = pageQuery(url);
  const page = await feed.read(sinceSeq, limit);
  return sendJson(res, 200, { posts: page.items, nextSeq: page.nextSeq });
}

/** The status a refusal answers with; 0 for an error that is not a refusal. */
function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof InvalidInputError) return 400;
  if (err instanceof BackplaneRefusalError) return 409;
  return 0;
}

/**
 * Serves `/api/rooms`, `/api/rooms/stream` and `/api/rooms/:room/(posts|stream)`; false when the
 * path is not one. `:room` is `team:<teamId>` or `#<channel>`, URL-encoded or not. Readers see
 * every post.
 */
export async function handleRoomsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: RoomsRouteOptions,
): Promise<boolean> {
  const path = url.pathname;
  if (!LIST.test(path) && !LIST_STREAM.test(path) && !ROUTE.test(path)) return false;
  try {
    await dispatch(req, res, url, options);
  } catch (err) {
    const status = statusOf(err);
    if (status === 0) throw err;
    req.resume();
    const allow = status === 405 ? { allow: 'GET, POST' } : undefined;
    sendJson(res, status, { error: 'invalid request', message: (err as Error).message }, allow);
  }
  return true;
}
