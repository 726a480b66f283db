// REST for the dashboard's agents page (`/api/agents`): every registered agent with its online
// state and channels, and credential rotation and revocation by the operator. Auth (bearer or
// session cookie + CSRF) runs before; the agents' own `/v1` API stays bearer-only.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Backplane } from '../backplane/index.js';
import { NotFoundError } from '../shared/errors.js';
import { sendJson } from './respond.js';

const AGENT = /^\/api\/agents\/([^/]+)\/(rotate|revoke)\/?$/;

/** Agents with the channels each one is a member of. */
async function listAgents(bp: Backplane): Promise<unknown> {
  const [agents, channels] = await Promise.all([
    bp.agents.list(),
    bp.channels.list({ includeArchived: false }),
  ]);
  return {
    agents: agents.map((a) => ({
      ...a,
      channels: channels.filter((c) => c.members.includes(a.nick)).map((c) => c.name),
    })),
  };
}

async function dispatch(req: IncomingMessage, url: URL, bp: Backplane): Promise<unknown> {
  const method = req.method ?? 'GET';
  if (/^\/api\/agents\/?$/.test(url.pathname)) {
    if (method === 'GET') return listAgents(bp);
    return undefined;
  }
  const m = AGENT.exec(url.pathname);
  if (m === null || method !== 'POST') return undefined;
  const nick = decodeURIComponent(m[1] ?? '');
  req.resume();
  if (m[2] === 'rotate') return { credentials: await bp.agents.rotate(nick) };
  return { agent: await bp.agents.revoke(nick) };
}

/** Handles `/api/agents/*`; false when the path is not an agents route. */
export async function handleAgentsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  bp: Backplane,
): Promise<boolean> {
  if (!/^\/api\/agents(?:\/|$)/.test(url.pathname)) return false;
  try {
    const body = await dispatch(req, url, bp);
    if (body === undefined) {
      req.resume();
      sendJson(res, 404, {
        error: 'not found',
        message: `no route for ${req.method ?? ''} ${url.pathname}`,
      });
    } else sendJson(res, 200, body);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    sendJson(res, 404, { error: 'not_found', message: err.message });
  }
  return true;
}
