// cairn-graph against the official memory server it replaces: tools/list compared field by
// field (the official one run from node_modules over stdio), and a scripted session replayed
// against both giving the same answers, call by call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { importMemoryFile, parseMemoryFile } from '../../src/graph/index.js';
import { createGraphServer } from '../../src/mcp/index.js';
import { linkedClient, tempCore, type TempDir } from '../helpers.js';
import { call, officialClient, SESSION } from './official.js';

let official: Client;
let ours: Client;
let core: Core;
let dir: TempDir;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ core, dir, close } = await tempCore());
  official = await officialClient(join(dir.path, 'memory.jsonl'));
  ours = await linkedClient(createGraphServer(core));
}, 30_000);
afterAll(async () => {
  await official.close();
  await ours.close();
  await close();
});

describe('cairn-graph and @modelcontextprotocol/server-memory', () => {
  it('list the same tools, field by field', async () => {
    const theirs = (await official.listTools()).tools;
    const mine = (await ours.listTools()).tools;
    expect(mine.map((t) => t.name)).toEqual(theirs.map((t) => t.name));
    for (const [i, t] of theirs.entries()) {
      const m = mine[i];
      for (const field of new Set([...Object.keys(t), ...Object.keys(m ?? {})]))
        expect(m?.[field as keyof typeof m], `${t.name}.${field}`).toEqual(
          t[field as keyof typeof t],
        );
    }
  });

  it('answer a scripted session the same, call by call', async () => {
    for (const [i, step] of SESSION.entries()) {
      const want = await call(official, step);
      expect(await call(ours, step), `step ${i}: ${step[0]} ${JSON.stringify(step[1])}`).toEqual(
        want,
      );
    }
  }, 60_000);

  it("import the official server's file into the same graph it reads", async () => {
    const file = parseMemoryFile(readFileSync(join(dir.path, 'memory.jsonl'), 'utf8'));
    expect(file.errors).toEqual([]);
    await importMemoryFile(core.store, 'imported', file);
    const theirs = (await official.callTool({ name: 'read_graph', arguments: {} }))
      .structuredContent;
    expect(await core.graph.readGraph('imported')).toEqual(theirs);
  });
});
