// The connect page lists its choices itself (web/ cannot import the server's registry): they
// must stay the servers and runtimes the attach route accepts, or a new server is missing from
// the page (or the page offers one the route refuses).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { RUNTIMES } from '../../src/http/index.js';
import { MCP_SERVER_NAMES } from '../../src/mcp/index.js';
import { ROOT } from '../helpers.js';

const PAGE = readFileSync(join(ROOT, 'web/src/connect/connect-page.tsx'), 'utf8');

/** The string items of `const <name> = [...] as const;` in the page's source. */
function listed(name: string): string[] {
  const body = new RegExp(`const ${name} = \\[([^\\]]*)\\] as const;`).exec(PAGE)?.[1] ?? '';
  return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1] ?? '');
}

describe('the connect page choices', () => {
  it('offers every MCP server and runtime the attach route accepts', () => {
    expect(listed('SERVERS').sort()).toEqual([...MCP_SERVER_NAMES].sort());
    expect(listed('RUNTIMES').sort()).toEqual([...RUNTIMES].sort());
  });
});
