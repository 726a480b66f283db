// REST for the humans who govern the tool broker: `GET /api/approvals`, `GET|POST
// /api/approvals/:id`, `GET /api/approvals/stream` (SSE), `GET /api/approvals/grants`,
// `DELETE /api/approvals/grants/:id`, `GET /api/audit`, `GET /api/tool-notes`. Auth and the
// Host check run before this; only the master token (or --no-auth) reaches it, never a scoped
// agent token.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { z } from 'zod';

import {
  ApprovalClosedError,
  approvalDecisionInput,
  approvalListInput,
  auditQueryInput,
  GrantRefusedError,
  grantListInput,
} from '../broker/index.js';
import type { Core } from '../core/index.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../shared/errors.js';
import type { ApprovalsWatch } from './approvals-stream.js';
import { streamBoard } from './board-stream.js';
import { HttpError, readBody, sendJson } from './respond.js';

const APPROVAL = /^\/api\/approvals\/([^/]+)\/?$/;
const GRANT = /^\/api\/approvals\/grants\/([^/]+)\/?$/;
const MAX_BODY = 64 * 1024;

function invalid(error: z.ZodError): HttpError {
  const issue = error.issues[0];
  return new HttpError(400, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

/** ISO dates in `since` / `until` become epoch ms; numbers pass through. */
function timeParam(value: string | null): string | number | undefined {
  if (value === null || value === '') return undefined;
  if (/^\d+$/.test(value)) return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : t;
}

function query(url: URL, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((n) => [n, url.searchParams.get(n) ?? undefined]));
}

async function auditPage(core: Core, url: URL): Promise<unknown> {
  const parsed = auditQueryInput.safeParse({
    ...query(url, ['tool', 'caller', 'outcome', 'step', 'callId', 'limit', 'cursor']),
    since: timeParam(url.searchParams.get('since')),
    until: timeParam(url.searchParams.get('until')),
  });
  if (!parsed.success) throw invalid(parsed.error);
  return core.broker.listAudit(parsed.data);
}

async function listApprovals(core: Core, url: URL): Promise<unknown> {
  const parsed = approvalListInput.safeParse(query(url, ['status', 'taskId', 'limit']));
  if (!parsed.success) throw invalid(parsed.error);
  const { status, taskId, limit } = parsed.data;
  const approvals = await core.broker.listApprovals({
    status: status === 'all' ? undefined : status,
    taskId,
    limit,
  });
  // The dashboard shows each call's risk; a tool hidden right now (no key) has none to show.
  const risks = new Map(core.broker.listTools().map((t) => [t.name, t.risk]));
  return { approvals: approvals.map((a) => ({ ...a, risk: risks.get(a.tool) ?? null })) };
}

async function decide(core: Core, req: IncomingMessage, id: string): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req, MAX_BODY)) as unknown;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(
      400,
      'body must be JSON: { "decision": "allow_once" | "allow_always" | "deny" }',
    );
  }
  const parsed = approvalDecisionInput.safeParse(body);
  if (!parsed.success) throw invalid(parsed.error);
  const { decision, decidedBy, expiresAt } = parsed.data;
  if (expiresAt !== undefined && expiresAt !== null && decision !== 'allow_always') {
    throw new HttpError(400, 'expiresAt: only an allow_always decision takes an expiry');
  }
  const options = { grantExpiresAt: expiresAt };
  return { approval: await core.broker.decide(id, decision, decidedBy ?? 'rest', options) };
}

async function grantsRoute(core: Core, method: string, url: URL): Promise<unknown> {
  const path = url.pathname.replace(/\/+$/, '');
  const grant = GRANT.exec(url.pathname)?.[1];
  if (path === '/api/approvals/grants' && method === 'GET') {
    const parsed = grantListInput.safeParse(query(url, ['status', 'principal', 'tool', 'limit']));
    if (!parsed.success) throw invalid(parsed.error);
    return { grants: await core.broker.listGrants(parsed.data) };
  }
  if (grant !== undefined && method === 'DELETE') {
    const by = url.searchParams.get('by') ?? '';
    const revokedBy = by === '' ? 'rest' : by.slice(0, 200);
    return { grant: await core.broker.revokeGrant(decodeURIComponent(grant), revokedBy) };
  }
  throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
}

async function dispatch(core: Core, req: IncomingMessage, url: URL): Promise<unknown> {
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '');
  const approval = APPROVAL.exec(url.pathname)?.[1];
  if (path === '/api/audit' && method === 'GET') return auditPage(core, url);
  if (/^\/api\/approvals\/grants(?:\/|$)/.test(path)) return grantsRoute(core, method, url);
  if (path === '/api/approvals' && method === 'GET') return listApprovals(core, url);
  if (path === '/api/tool-notes' && method === 'GET') {
    const { caller, limit } = query(url, ['caller', 'limit']);
    const n = Math.min(500, Math.max(1, Number(limit ?? 50) || 50));
    return { notes: await core.broker.listNotes({ caller, limit: n }) };
  }
  if (approval !== undefined) {
    const id = decodeURIComponent(approval);
    if (method === 'GET') return core.broker.getApproval(id);
    if (method === 'POST') return decide(core, req, id);
  }
  throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
}

const ERROR_NAMES: Record<number, string> = {
  400: 'invalid request',
  405: 'method not allowed',
  413: 'payload too large',
};

const OWNED = /^\/api\/(?:audit|approvals|tool-notes)(?:\/|$)/;

export interface BrokerRouteOptions {
  core: Core;
  /** The shared poller behind `GET /api/approvals/stream`. */
  watch: ApprovalsWatch;
  keepAliveMs?: number | undefined;
}

/** Handles the broker routes; false when the path is not one of them. */
export async function handleBrokerRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  { core, watch, keepAliveMs }: BrokerRouteOptions,
): Promise<boolean> {
  if (!OWNED.test(url.pathname)) return false;
  if (url.pathname.replace(/\/+$/, '') === '/api/approvals/stream' && req.method === 'GET') {
    await streamBoard(req, res, watch, keepAliveMs ?? 15_000, 'approvals');
    return true;
  }
  try {
    sendJson(res, 200, await dispatch(core, req, url));
  } catch (err) {
    req.resume();
    if (err instanceof HttpError) {
      sendJson(res, err.status, {
        error: ERROR_NAMES[err.status] ?? 'error',
        message: err.message,
      });
    } else if (err instanceof NotFoundError) {
      sendJson(res, 404, { error: 'not found', message: err.message });
    } else if (
      err instanceof ApprovalClosedError ||
      err instanceof GrantRefusedError ||
      err instanceof ConflictError
    ) {
      sendJson(res, 409, { error: 'conflict', message: err.message });
    } else if (err instanceof InvalidInputError) {
      sendJson(res, 400, { error: 'invalid request', message: err.message });
    } else throw err;
  }
  return true;
}
