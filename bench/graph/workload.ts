// The graph bench's workload, the same for the official memory server and cairn-graph: one
// writer's create_entities rate, a bulk load through the tools in batches (bounded in time),
// search_nodes p50 over selective queries, and concurrent writers' acknowledged writes lost.
import { performance } from 'node:perf_hooks';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { type Acked, lost, runWriter } from '../../test/graph/writers.js';
import { type BenchClient, connectMany } from '../lib/connect.js';
import { quantile } from '../lib/measure.js';

/** One entity of the bulk load: a unique token in its observation makes a selective query. */
export const entityAt = (i: number) => ({
  name: `entity-${i}`,
  entityType: `type-${i % 20}`,
  observations: [`tok${i}q a note about topic ${i % 97}`, `seen ${i % 13} times`],
});

async function callOk(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 600_000,
  })) as CallToolResult;
  if (r.isError === true) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r;
}

export interface WriteRate {
  calls: number;
  seconds: number;
  perSecond: number;
}

/** Sequential create_entities calls of one entity each, into an empty graph. */
export async function writeRate(
  client: Client,
  calls: number,
  boundMs: number,
): Promise<WriteRate> {
  const start = performance.now();
  let done = 0;
  while (done < calls && performance.now() - start < boundMs) {
    await callOk(client, 'create_entities', { entities: [entityAt(1_000_000 + done)] });
    done += 1;
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    calls: done,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(done / seconds),
  };
}

export interface Load {
  /** Entities the graph holds when the load stopped. */
  reached: number;
  seconds: number;
  /** Whether the time bound stopped it before the target. */
  bounded: boolean;
}

/** Loads entities [from, to) in create_entities batches; stops at the deadline (epoch ms). */
export async function bulkLoad(
  client: Client,
  from: number,
  to: number,
  o: { batch: number; deadline: number },
): Promise<Load> {
  const start = performance.now();
  let at = from;
  while (at < to && Date.now() < o.deadline) {
    const n = Math.min(o.batch, to - at);
    await callOk(client, 'create_entities', {
      entities: Array.from({ length: n }, (_, i) => entityAt(at + i)),
    });
    at += n;
  }
  return {
    reached: at,
    seconds: Math.round((performance.now() - start) / 10) / 100,
    bounded: at < to,
  };
}

export interface SearchLatency {
  entities: number;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  /** Queries whose answer was not exactly the one entity the token names. */
  wrong: number;
}

/** search_nodes for the token of `queries` spread entities among the first `n`. */
export async function searchLatency(
  client: Client,
  n: number,
  queries: number,
  boundMs: number,
): Promise<SearchLatency> {
  const times: number[] = [];
  let wrong = 0;
  const start = performance.now();
  for (let q = 0; q < queries && performance.now() - start < boundMs; q++) {
    const i = Math.floor(((q + 0.5) * n) / queries);
    const t = performance.now();
    const r = await callOk(client, 'search_nodes', { query: `TOK${i}Q` });
    times.push(performance.now() - t);
    const names = ((r.structuredContent?.['entities'] as { name: string }[]) ?? []).map(
      (e) => e.name,
    );
    if (names.length !== 1 || names[0] !== `entity-${i}`) wrong += 1;
  }
  times.sort((a, b) => a - b);
  const ms = (v: number) => Math.round(v * 100) / 100;
  return {
    entities: n,
    queries: times.length,
    p50Ms: ms(quantile(times, 0.5)),
    p99Ms: ms(quantile(times, 0.99)),
    wrong,
  };
}

export interface LostWrites {
  writers: number;
  acknowledged: number;
  lostEntities: number;
  lostRelations: number;
  errors: number;
  /** Share of acknowledged entities present at the end. */
  keptEntitiesPercent: number;
}

/** `writers` processes (from `open`) writing at once, then one read_graph from `reader`. */
export async function lostWrites(
  open: (i: number) => Promise<BenchClient>,
  reader: () => Promise<BenchClient>,
  o: { writers: number; rounds: number; batch: number; boundMs: number },
): Promise<LostWrites> {
  const clients = await connectMany(o.writers, open);
  let acked: Acked[];
  try {
    const deadline = Date.now() + o.boundMs;
    acked = await Promise.all(clients.map((c, w) => runWriter(c.client, w, { ...o, deadline })));
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  const r = await reader();
  try {
    const read = await callOk(r.client, 'read_graph', {});
    const graph = read.structuredContent as unknown as Parameters<typeof lost>[1];
    const missing = lost(acked, graph);
    const ackedEntities = acked.reduce((n, a) => n + a.entities.length, 0);
    return {
      writers: o.writers,
      acknowledged: missing.acknowledged,
      lostEntities: missing.entities,
      lostRelations: missing.relations,
      errors: acked.reduce((n, a) => n + a.errors, 0),
      keptEntitiesPercent:
        ackedEntities === 0
          ? 100
          : Math.round(((ackedEntities - missing.entities) / ackedEntities) * 1000) / 10,
    };
  } finally {
    await r.close();
  }
}
