// REST for memory, for the dashboard and scripts: scoped search, browse, get, tag edits and
// soft deletes. The caller acts as the operator and names the scope explicitly
// (`scopeTeamId` / `scopeAgentId`; none = global items only). Auth runs before; inputs are
// validated by memory's own zod schemas. Search results carry the dashboard's relevance
// cut-off marks (`weak`, `cosine`, `cutoff`), which memory_search over MCP does not.
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  DEFAULT_CUTOFF,
  type Memory,
  memoryBrowseInput,
  memoryGetInput,
  memoryRemoveInput,
  memorySearchInput,
  memorySetTagsInput,
  type Scope,
} from '../memory/index.js';
import { HttpError, readBody, sendJson } from './respond.js';
import { parse, queryOf, sendRefusal } from './rest-input.js';

const ITEM = /^\/api\/memory\/items\/([^/]+)(?:\/(tags))?\/?$/;
const MAX_BODY = 64 * 1024;

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  try {
    const body = JSON.parse(await readBody(req, MAX_BODY)) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
  }
  throw new HttpError(400, 'body must be a JSON object');
}

const scopeOf = (i: {
  scopeTeamId?: string | undefined;
  scopeAgentId?: string | undefined;
}): Scope => ({
  teamId: i.scopeTeamId,
  agentId: i.scopeAgentId,
});

async function itemRoute(req: IncomingMessage, url: URL, memory: Memory, m: RegExpExecArray) {
  const id = decodeURIComponent(m[1] ?? '');
  const method = req.method ?? 'GET';
  if (m[2] === 'tags' && method === 'POST') {
    const input = parse(memorySetTagsInput, { ...(await jsonBody(req)), id });
    return { item: await memory.setTags(id, input.tags, scopeOf(input)) };
  }
  if (m[2] !== undefined) throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
  if (method === 'GET') {
    return memory.get(id, scopeOf(parse(memoryGetInput, { ...queryOf(url), id })));
  }
  if (method === 'DELETE') {
    return memory.remove(id, scopeOf(parse(memoryRemoveInput, { ...queryOf(url), id })));
  }
  throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
}

async function dispatch(req: IncomingMessage, url: URL, memory: Memory): Promise<unknown> {
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '/api/memory/search' && method === 'GET') {
    const input = parse(memorySearchInput, queryOf(url));
    // The page hides weak vector / hybrid hits until asked; nothing is dropped here.
    return memory.search({ ...input, scope: scopeOf(input), cutoff: DEFAULT_CUTOFF });
  }
  if (path === '/api/memory/items' && method === 'GET') {
    const input = parse(memoryBrowseInput, queryOf(url));
    return { items: await memory.browse({ limit: input.limit, scope: scopeOf(input) }) };
  }
  const m = ITEM.exec(url.pathname);
  if (m === null) throw new HttpError(404, `no route for ${method} ${url.pathname}`);
  return itemRoute(req, url, memory, m);
}

/** Handles `/api/memory/*`; false when the path is not a memory route. */
export async function handleMemoryRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  memory: Memory,
): Promise<boolean> {
  if (!/^\/api\/memory\/(?:search|items)(?:\/|$)/.test(url.pathname)) return false;
  try {
    sendJson(res, 200, await dispatch(req, url, memory));
  } catch (err) {
    req.resume();
    if (!sendRefusal(res, err)) throw err;
  }
  return true;
}
