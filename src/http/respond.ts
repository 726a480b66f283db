// Small helpers for writing JSON responses (times as ISO 8601) and reading bounded request bodies.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isoTimes } from '../shared/index.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Answers with `body` as JSON. Every REST answer goes through here, so this is where times
 * leave as ISO 8601 (`isoTimes`: epoch ms under a time field become strings).
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(isoTimes(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A JSON-RPC error envelope (id null: we could not tie it to a request). */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Reads the whole body, refusing more than `limit` bytes with HttpError 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new HttpError(413, `request body larger than ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads and parses a JSON-RPC request body. A refused body (too large) answers -32600 with its
 * status, bad JSON 400 -32700 with `parseError`; both resolve undefined, the response sent.
 */
export async function readRpcBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  parseError: string,
): Promise<unknown> {
  let raw: string;
  try {
    raw = await readBody(req, limit);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    sendRpcError(res, err.status, -32600, err.message);
    return undefined;
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    sendRpcError(res, 400, -32700, parseError);
    return undefined;
  }
}
