// REST for the board, for the dashboard and scripts: list (team, assignee, ready filters), one
// task with its graph and status history, status moves (state machine enforced, uncapped board
// primitive, recorded as `user`), comments as the user, dependency link/unlink, and the live
// change stream. Listed tasks carry their pending broker approvals (the "Needs approval"
// column). Auth and the Host check run before; bodies are validated by the board's own zod
// schemas.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { z } from 'zod';

import {
  addCommentInput,
  type Board,
  linkTaskInput,
  listTasksInput,
  TransitionError,
  updateTaskStatusInput,
} from '../board/index.js';
import type { Broker } from '../broker/index.js';
import { DomainError, InvalidInputError, NotFoundError } from '../shared/errors.js';
import { type BoardWatch, streamBoard } from './board-stream.js';
import { HttpError, readBody, sendJson } from './respond.js';

export interface BoardRouteOptions {
  board: Board;
  /** Marks listed tasks that wait on a broker approval. */
  approvals: Pick<Broker, 'pendingApprovalsByTask'>;
  watch: BoardWatch;
  keepAliveMs?: number | undefined;
}

const TASK = /^\/api\/board\/tasks\/([^/]+)(?:\/(status|comments|dependencies)(?:\/([^/]+))?)?\/?$/;
const MAX_BODY = 128 * 1024;

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const got = schema.safeParse(value);
  if (got.success) return got.data;
  const issue = got.error.issues[0];
  throw new HttpError(400, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, MAX_BODY);
  try {
    const body = JSON.parse(raw) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch {
    // Answered below.
  }
  throw new HttpError(400, 'body must be a JSON object');
}

type Sources = Pick<BoardRouteOptions, 'board' | 'approvals'>;

async function listTasks({ board, approvals }: Sources, url: URL): Promise<unknown> {
  const q = url.searchParams;
  const filter = parse(listTasksInput, {
    teamId: q.get('teamId') ?? undefined,
    ready: q.has('ready') ? q.get('ready') === '1' || q.get('ready') === 'true' : undefined,
  });
  const assignee = q.get('assignee') ?? undefined;
  const scoped = { ...filter, assigneeAgentId: assignee };
  const tasks = await board.listTasks(scoped);
  const ready =
    filter.ready === true ? undefined : await board.listTasks({ ...scoped, ready: true });
  const readyIds = new Set((ready ?? tasks).map((t) => t.id));
  // One query for every task's pending approvals, whatever the list's size.
  const waiting = await approvals.pendingApprovalsByTask();
  return {
    tasks: tasks.map((t) => ({
      ...t,
      ready: readyIds.has(t.id),
      pendingApprovals: (waiting.get(t.id) ?? []).map(({ id, tool, expiresAt }) => ({
        id,
        tool,
        expiresAt,
      })),
    })),
  };
}

async function getTask(board: Board, taskId: string): Promise<unknown> {
  const detail = await board.getTask(taskId);
  const relations = await board.getRelations(taskId);
  return { ...detail, ...relations, history: await board.history(taskId) };
}

async function taskAction(
  board: Board,
  req: IncomingMessage,
  taskId: string,
  action: string,
): Promise<unknown> {
  if (action === 'status') {
    const { status } = parse(updateTaskStatusInput, { ...(await jsonBody(req)), taskId });
    // The dashboard acts as the operator: recorded as `user`, never subject to the holder check.
    return { task: await board.updateStatus(taskId, status, { name: 'user', via: 'dashboard' }) };
  }
  if (action === 'comments') {
    const { body } = parse(addCommentInput, { body: (await jsonBody(req))['body'], taskId });
    return { comment: await board.addComment({ taskId, body, authorType: 'user' }) };
  }
  const input = parse(linkTaskInput, { ...(await jsonBody(req)), taskId });
  return board.linkTask(taskId, input.dependsOnTaskId);
}

async function dispatch(req: IncomingMessage, url: URL, sources: Sources): Promise<unknown> {
  const { board } = sources;
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '/api/board/tasks' && method === 'GET') return listTasks(sources, url);
  const m = TASK.exec(url.pathname);
  if (m?.[1] === undefined) throw new HttpError(404, `no route for ${method} ${url.pathname}`);
  const taskId = decodeURIComponent(m[1]);
  const [action, target] = [m[2], m[3]];
  if (action === undefined && method === 'GET') return getTask(board, taskId);
  if (action === 'dependencies' && target !== undefined && method === 'DELETE') {
    return board.unlinkTask(taskId, decodeURIComponent(target));
  }
  if (action !== undefined && target === undefined && method === 'POST') {
    return taskAction(board, req, taskId, action);
  }
  throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof HttpError) return err.status;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof InvalidInputError) return 400;
  if (err instanceof TransitionError || err instanceof DomainError) return 409;
  return undefined;
}

/** Handles `/api/board/*`; false when the path is not a board route. */
export async function handleBoardRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: BoardRouteOptions,
): Promise<boolean> {
  if (!/^\/api\/board(?:\/|$)/.test(url.pathname)) return false;
  if (url.pathname.replace(/\/+$/, '') === '/api/board/stream' && req.method === 'GET') {
    await streamBoard(req, res, options.watch, options.keepAliveMs ?? 15_000);
    return true;
  }
  try {
    sendJson(res, 200, await dispatch(req, url, options));
  } catch (err) {
    const status = statusOf(err);
    if (status === undefined) throw err;
    req.resume();
    sendJson(res, status, {
      error: status === 409 ? 'conflict' : 'refused',
      message: (err as Error).message,
    });
  }
  return true;
}
