// REST for the dashboard's sessions page: `GET /api/sessions` (recent sessions, filters by
// status, agent_type, project_id, worktree_id; the list says empty vs filtered_out),
// `GET /api/sessions/:id` (one session with its timeline and summary) and
// `POST /api/sessions/:id/summarize`. Calls core.sessions directly; inputs are the session
// family's own zod schemas. Auth (bearer, or session cookie + CSRF for the POST) runs before.
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  ACTIVITY_LIMIT,
  getSessionInput,
  LIST_LIMIT,
  listSessionsInput,
  type Sessions,
  summarizeSessionInput,
} from '../activity/sessions/index.js';
import { HttpError, sendJson } from './respond.js';
import { parse, queryOf, sendRefusal } from './rest-input.js';

const ONE = /^\/api\/sessions\/([^/]+)(?:\/(summarize))?\/?$/;

/** Who summarizes from the dashboard: recorded as the summary's provenance. */
const DASHBOARD = { agent_program: 'cairn-dashboard' } as const;

async function dispatch(req: IncomingMessage, url: URL, sessions: Sessions): Promise<unknown> {
  const method = req.method ?? 'GET';
  if (/^\/api\/sessions\/?$/.test(url.pathname)) {
    if (method !== 'GET') throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
    const { action: _a, token: _t, limit, ...filter } = parse(listSessionsInput, queryOf(url));
    return sessions.list(filter, limit ?? LIST_LIMIT);
  }
  const m = ONE.exec(url.pathname);
  if (m === null) throw new HttpError(404, `no route for ${method} ${url.pathname}`);
  const id = decodeURIComponent(m[1] ?? '');
  if (m[2] === 'summarize') {
    if (method !== 'POST') throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
    req.resume();
    const input = parse(summarizeSessionInput, { session_id: id });
    return sessions.summarize(input.session_id, DASHBOARD);
  }
  if (method !== 'GET') throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
  const input = parse(getSessionInput, { ...queryOf(url), session_id: id });
  return sessions.get(input.session_id, input.limit ?? ACTIVITY_LIMIT);
}

/** Handles `/api/sessions*`; false when the path is not a sessions route. */
export async function handleSessionsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  sessions: Sessions,
): Promise<boolean> {
  if (!/^\/api\/sessions(?:\/|$)/.test(url.pathname)) return false;
  try {
    sendJson(res, 200, await dispatch(req, url, sessions));
  } catch (err) {
    req.resume();
    if (!sendRefusal(res, err)) throw err;
  }
  return true;
}
