// Child-process entry: the echo server over Streamable HTTP with sessions (node:http, one
// server + transport per initialize, no auth) on 127.0.0.1 port 0. Prints its URL as JSON.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

import { createEchoServer } from './server.js';

const sessions = new Map<string, StreamableHTTPServerTransport>();

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function reject(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const header = req.headers['mcp-session-id'];
  const transport = typeof header === 'string' ? sessions.get(header) : undefined;
  if (req.method !== 'POST') {
    if (transport === undefined) return reject(res, 400, 'no session');
    return transport.handleRequest(req, res);
  }
  const body = await readJson(req);
  if (transport !== undefined) return transport.handleRequest(req, res, body);
  if (header !== undefined || !isInitializeRequest(body)) return reject(res, 400, 'no session');
  const fresh = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, fresh),
  });
  fresh.onclose = () => {
    if (fresh.sessionId !== undefined) sessions.delete(fresh.sessionId);
  };
  await createEchoServer().connect(fresh);
  return fresh.handleRequest(req, res, body);
}

const http = createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) reject(res, 500, 'internal error');
    else res.end();
  });
});
http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
const stop = (): void => {
  http.close();
  http.closeAllConnections();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
