// 16 OS processes (real cairn-mcp-graph stdio bins, each its own SQLite connection) writing
// entities and relations to one database file at once: every acknowledged write is in the
// graph afterwards, and the trigram index finds each entity by its own token.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { lost, runWriter } from '../graph/writers.js';
import { ROOT, tempCore, tempDir, type TempDir } from '../helpers.js';
import { BUSY_PATTERN, connectStdio } from './spawn.js';

const WRITERS = 16;
const ROUNDS = 15;
const BATCH = 3;
const BUDGET_MS = 240_000;

describe('16 graph writers on one database', () => {
  let dir: TempDir;
  const closers: (() => Promise<void>)[] = [];
  beforeEach(() => {
    dir = tempDir('cairn-graph-race-');
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
    dir.cleanup();
  });

  it(`${WRITERS} processes × ${ROUNDS} rounds: nothing acknowledged is lost`, async () => {
    const db = join(dir.path, 'cairn.db');
    const env = { CAIRN_HOME: join(dir.path, 'home'), CAIRN_EMBEDDINGS: 'none' };
    // The first process creates the file and runs the migrations; the rest open it.
    const procs: { client: Client; stderr(): string }[] = [];
    const bin = join(ROOT, 'bin/cairn-mcp-graph.js');
    const spawnOne = async (w: number) => {
      const p = await connectStdio({ bin, what: 'graph', clientName: `writer-${w}`, db, env });
      closers.push(() => p.client.close());
      return p;
    };
    procs.push(await spawnOne(0));
    procs.push(
      ...(await Promise.all(Array.from({ length: WRITERS - 1 }, (_, i) => spawnOne(i + 1)))),
    );
    const deadline = Date.now() + BUDGET_MS;
    const acked = await Promise.all(
      procs.map((p, w) => runWriter(p.client, w, { rounds: ROUNDS, batch: BATCH, deadline })),
    );
    expect(acked.reduce((n, a) => n + a.errors, 0)).toBe(0);
    for (const p of procs) expect(p.stderr()).not.toMatch(BUSY_PATTERN);
    await Promise.all(closers.splice(0).map((c) => c()));

    const reader = await tempCore({ dbPath: db, embedder: null });
    try {
      const graph = await reader.core.graph.readGraph('default');
      const missing = lost(acked, graph);
      expect(missing).toEqual({
        entities: 0,
        relations: 0,
        acknowledged: acked.reduce((n, a) => n + a.entities.length + a.relations.length, 0),
      });
      // Every writer finished all its rounds (the budget was not what ended them).
      expect(graph.entities).toHaveLength(WRITERS * ROUNDS * BATCH);
      for (const w of [0, WRITERS - 1]) {
        const found = await reader.core.graph.searchNodes('default', `w${w}x${ROUNDS - 1}x0 `);
        expect(found.entities.map((e) => e.name)).toEqual([`w${w}-r${ROUNDS - 1}-e0`]);
      }
    } finally {
      await reader.close();
    }
  }, 300_000);
});
