// The backplane REST API (`/v1`, the same bearer auth as its MCP endpoint): register and list
// agents, list and create channels, set a topic, read and post messages, and stream a channel
// as Server-Sent Events resumable by Last-Event-ID (the SSE helper the rooms stream uses).
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { z } from 'zod';

import {
  BackplaneForbiddenError,
  type Backplane,
  createChannelInput,
  type Message,
  messagesQuery,
  type Principal,
  registerAgentInput,
  sendMessageInput,
  setTopicInput,
} from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { ConflictError, DomainError, InvalidInputError, NotFoundError } from '../shared/index.js';
import { backplanePrincipal, sendUnauthorized } from './backplane-auth.js';
import { HttpError, readBody, sendJson } from './respond.js';
import { resumeFrom, streamFeed } from './sse.js';

export interface BackplaneRouteOptions {
  core: Core;
  apiToken: string | null;
  /** Named in 401 answers: where the server's API token lives. */
  apiTokenFile?: string | undefined;
  /** A stream sends a keep-alive comment after this long without a message. Default 15 s. */
  keepAliveMs?: number | undefined;
}

const CHANNEL_ROUTE = /^\/v1\/channels\/([^/]+)\/(messages|stream|topic)\/?$/;
const MAX_BODY = 1024 * 1024;

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  as: Principal;
  bp: Backplane;
  options: BackplaneRouteOptions;
}

const wire = (m: Message): Record<string, unknown> => ({
  channel: m.channel,
  seq: m.seq,
  ...m.envelope,
});

function invalid(error: z.ZodError): HttpError {
  const issue = error.issues[0];
  return new HttpError(400, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

async function body<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.output<S>> {
  const raw = await readBody(req, MAX_BODY);
  let json: unknown;
  try {
    json = raw === '' ? {} : (JSON.parse(raw) as unknown);
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

function query<S extends z.ZodType>(url: URL, schema: S): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** `%23general`, `#general` or `general` → `#general`. */
function channelOf(segment: string): string {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'channel: bad URL encoding');
  }
  return name.startsWith('#') ? name : `#${name}`;
}

async function stream(ctx: Ctx, channel: string): Promise<void> {
  const { req, res, bp } = ctx;
  const q = query(ctx.url, messagesQuery);
  const cursor = resumeFrom(req, q.afterSeq ?? 0);
  const limit = q.limit ?? 100;
  await bp.channels.get(channel);
  await streamFeed(req, res, {
    label: `channel ${channel}`,
    event: 'message',
    cursor,
    limit,
    keepAliveMs: ctx.options.keepAliveMs ?? 15_000,
    read: async (after) => {
      const page = await bp.readSince(channel, after, limit);
      return { items: page.messages, nextSeq: page.nextSeq };
    },
    wait: (after, timeoutMs, signal) => bp.waitForMessage(channel, after, timeoutMs, signal),
    seqOf: (m) => m.seq,
    dataOf: wire,
    onError: (err) => ctx.options.core.logger.warn({ err, channel }, 'channel stream ended'),
  });
}

async function channelRoute(ctx: Ctx, channel: string, what: string): Promise<void> {
  const { req, res, bp, as } = ctx;
  if (what === 'stream' && req.method === 'GET') return stream(ctx, channel);
  if (what === 'messages' && req.method === 'GET') {
    const q = query(ctx.url, messagesQuery);
    if (q.afterSeq !== undefined) {
      const page = await bp.readSince(channel, q.afterSeq, q.limit ?? 100);
      return sendJson(res, 200, {
        channel,
        messages: page.messages.map(wire),
        nextSeq: page.nextSeq,
      });
    }
    const messages = await bp.history({ channel, limit: q.limit });
    return sendJson(res, 200, { channel, messages: messages.map(wire) });
  }
  if (what === 'messages' && req.method === 'POST') {
    const m = await bp.send(as, { ...(await body(req, sendMessageInput)), channel });
    return sendJson(res, 201, wire(m));
  }
  if (what === 'topic' && req.method === 'PUT') {
    const { topic } = await body(req, setTopicInput);
    if (as.kind === 'agent' && as.type === 'observer')
      throw new BackplaneForbiddenError('observers cannot set topics');
    return sendJson(
      res,
      200,
      await bp.channels.setTopic(channel, topic, as.kind === 'operator' ? 'operator' : as.nick),
    );
  }
  const allow = what === 'messages' ? 'GET, POST' : what === 'topic' ? 'PUT' : 'GET';
  sendJson(res, 405, { error: `method ${req.method ?? ''} not allowed` }, { allow });
}

async function dispatch(ctx: Ctx, path: string): Promise<boolean> {
  const { req, res, bp, as, url } = ctx;
  const method = req.method ?? '';
  if (path === '/v1/agents/register' && method === 'POST') {
    sendJson(res, 201, await bp.register(as, await body(req, registerAgentInput)));
  } else if (path === '/v1/agents' && method === 'GET') {
    sendJson(res, 200, { agents: await bp.agents.list() });
  } else if (path === '/v1/channels' && method === 'GET') {
    const all = url.searchParams.get('all') === '1';
    sendJson(res, 200, { channels: await bp.channels.list({ includeArchived: all }) });
  } else if (path === '/v1/channels' && method === 'POST') {
    const input = await body(req, createChannelInput);
    const createdBy = as.kind === 'operator' ? 'operator' : as.nick;
    const ttlMs = input.ttlSeconds === undefined ? undefined : input.ttlSeconds * 1000;
    sendJson(
      res,
      201,
      await bp.channels.create({ name: input.name, topic: input.topic, ttlMs, createdBy }),
    );
  } else {
    const m = CHANNEL_ROUTE.exec(path);
    if (m === null) return false;
    await channelRoute(ctx, channelOf(m[1] ?? ''), m[2] ?? '');
  }
  return true;
}

function statusOf(err: DomainError): number {
  if (err instanceof NotFoundError) return 404;
  if (err instanceof ConflictError) return 409;
  if (err instanceof BackplaneForbiddenError) return 403;
  return 400;
}

/** Serves `/v1/*`; returns false when the path is not a backplane route. */
export async function handleBackplaneRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: BackplaneRouteOptions,
): Promise<boolean> {
  if (!url.pathname.startsWith('/v1/')) return false;
  const as = await backplanePrincipal(options.core, options.apiToken, req);
  if (as === undefined) {
    req.resume();
    sendUnauthorized(res, false, options.apiTokenFile);
    return true;
  }
  try {
    const ctx = { req, res, url, as, bp: options.core.backplane, options };
    if (!(await dispatch(ctx, url.pathname)))
      sendJson(res, 404, {
        error: 'not found',
        message: `no route for ${req.method ?? ''} ${url.pathname}`,
      });
  } catch (err) {
    if (err instanceof HttpError)
      sendJson(res, err.status, { error: 'invalid request', message: err.message });
    else if (err instanceof InvalidInputError)
      sendJson(res, 400, { error: 'invalid', field: err.field ?? null, message: err.message });
    else if (err instanceof DomainError)
      sendJson(res, statusOf(err), { error: err.code, message: err.message });
    else throw err;
  }
  return true;
}
