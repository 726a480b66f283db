// The lines `cairn serve` prints once it listens: the dashboard (and how to log in, or how to
// build it), every MCP endpoint, IRC, the database, the embedder and the files it uses. The
// banner's last line names the token file (or says auth is off): readers wait for it.

import { apiTokenPath, isDashboardBuilt } from '../http/index.js';
import { MCP_SERVER_NAMES } from '../mcp/index.js';
import { type ServeRecord, serveRecordPath } from './serve-record.js';

export interface BannerInput {
  record: ServeRecord;
  home: string;
  /** The embedder's model id, or null without one. */
  embedder: string | null;
  /** The dashboard's files (default web/dist). */
  webRoot?: string;
}

/** The start-up banner, one string ending in a newline. */
export async function serveBanner(input: BannerInput): Promise<string> {
  const { record, home } = input;
  const url = record.url;
  const dashboard = (await isDashboardBuilt(input.webRoot))
    ? `${url}/  (log in with a one-time link: cairn open)`
    : `not built; run npm run build:web (${url}/ says so until then)`;
  const mcp = MCP_SERVER_NAMES.map((n) => `${url}/api/mcp/${n}`).join(' ');
  const embedder =
    input.embedder === null
      ? 'none (memory search is full text only)'
      : `${input.embedder} (loads in the background)`;
  return [
    `cairn ${record.version} listening on ${url}`,
    `  dashboard: ${dashboard}`,
    `  MCP: ${mcp}`,
    `       ${url}/mcp (the backplane at the spec's path)`,
    `  IRC: ${record.irc ?? 'off'}`,
    `  database: ${record.db}`,
    `  embedder: ${embedder}`,
    `  runtime file: ${serveRecordPath(home)} (removed on shutdown)`,
    record.auth ? `  API token: ${apiTokenPath(home)}` : '  auth: disabled (--no-auth)',
    '',
  ].join('\n');
}
