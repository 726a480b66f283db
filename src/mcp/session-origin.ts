// Which client a session is and how it came: the history names it for changes made by unbound
// sessions ("by claude-code via stdio"). The client name is what the client said in
// initialize (self-reported: recorded for people to read, never used to authorise anything).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import type { ActorOrigin } from '../board/index.js';

const MAX_CLIENT_CHARS = 100;

/** The client's name, control characters removed and cut at 100 characters; undefined if blank. */
export function clientName(server: Server): string | undefined {
  const raw = server.getClientVersion()?.name ?? '';
  const name = [...raw]
    .filter((c) => c >= ' ' && c !== '\x7f')
    .join('')
    .trim();
  return name === '' ? undefined : name.slice(0, MAX_CLIENT_CHARS);
}

/** The session's client name and transport (`stdio` / `http`; undefined for others). */
export function sessionOrigin(server: Server): ActorOrigin {
  const t = server.transport;
  const via =
    t instanceof StdioServerTransport
      ? 'stdio'
      : t instanceof StreamableHTTPServerTransport
        ? 'http'
        : undefined;
  return { client: clientName(server), via };
}
