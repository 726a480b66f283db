// The rooms bench's measurements: posting throughput from several stdio processes, long-poll
// delivery latency (same process and across processes), and the broker's per-call overhead.
// Every loop is bounded by a count and a time cap; everything runs on loopback / local files.
import { performance } from 'node:perf_hooks';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { createBroker, echoInput } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { callTool } from '../lib/connect.js';
import { quantile } from '../lib/measure.js';

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

export interface ThroughputResult {
  processes: number;
  posts: number;
  failed: number;
  seconds: number;
  postsPerSecond: number;
  gapFree: boolean;
}

/** Every client posts in a loop until the time cap or its count cap. */
export async function measurePosting(
  core: Core,
  clients: readonly Client[],
  bounds: { ms: number; maxEach: number },
): Promise<ThroughputResult> {
  let posts = 0;
  let failed = 0;
  const start = performance.now();
  const end = start + bounds.ms;
  await Promise.all(
    clients.map(async (client, i) => {
      for (let n = 0; n < bounds.maxEach && performance.now() < end; n++) {
        const res = await callTool(client, 'team_chat_post', {
          text: `bench post ${n} from ${i}`,
          authorAgentId: `poster-${i}`,
          teamId: 'bench',
        }).catch(() => ({ isError: true }));
        if (res.isError) failed++;
        else posts++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const rows = await core.store.all<{ seq: number }>(
    'SELECT seq FROM room_posts WHERE room_id = ? ORDER BY seq',
    ['team:bench'],
  );
  const gapFree = rows.length === posts && rows.every((r, i) => r.seq === i + 1);
  return {
    processes: clients.length,
    posts,
    failed,
    seconds: round(seconds, 3),
    postsPerSecond: round(posts / seconds, 1),
    gapFree,
  };
}

export interface LatencyResult {
  samples: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Post-to-delivery latency of a long-polling subscriber: the subscriber waits, then `post`
 * commits a post; latency runs from just before the post call to the subscriber's answer,
 * minus nothing (so it includes the post's own round trip, an upper bound on the wake-up).
 */
export async function measureLatency(
  subscriber: Client,
  post: (i: number) => Promise<void>,
  samples: number,
  fromSeq: number,
): Promise<LatencyResult> {
  const latencies: number[] = [];
  let timeouts = 0;
  let cursor = fromSeq;
  for (let i = 0; i < samples; i++) {
    let delivered = 0;
    const waiting = callTool(subscriber, 'team_chat_subscribe', { sinceSeq: cursor, waitMs: 5000 });
    void waiting.then(() => (delivered = performance.now()));
    await new Promise((r) => setTimeout(r, 30));
    const t0 = performance.now();
    await post(i);
    const res = await waiting;
    const page = JSON.parse(res.text) as { posts: unknown[]; nextSeq: number };
    cursor = page.nextSeq;
    if (page.posts.length === 0) timeouts++;
    else latencies.push(delivered - t0);
  }
  latencies.sort((a, b) => a - b);
  return {
    samples: latencies.length,
    timeouts,
    p50Ms: round(quantile(latencies, 0.5), 2),
    p99Ms: round(quantile(latencies, 0.99), 2),
    maxMs: round(latencies.at(-1) ?? 0, 2),
  };
}

export interface OverheadResult {
  calls: number;
  directUs: number;
  brokerUs: number;
  ratio: number;
}

async function perCallUs(fn: () => Promise<unknown>, ms: number, max: number): Promise<number> {
  const start = performance.now();
  let n = 0;
  while (n < max && performance.now() - start < ms) {
    await fn();
    n++;
  }
  return ((performance.now() - start) * 1000) / Math.max(1, n);
}

/** The broker pipeline vs a direct execution of `echo` (parse + execute), in one run. */
export async function measureBrokerOverhead(
  core: Core,
  bounds: { ms: number; maxCalls: number },
): Promise<OverheadResult> {
  const broker = createBroker(core.store);
  const direct = (): Promise<unknown> =>
    Promise.resolve({ message: echoInput.parse({ message: 'hello' }).message });
  const viaBroker = (): Promise<unknown> =>
    broker.call({ tool: 'echo', args: { message: 'hello' }, caller: 'bench' });
  await perCallUs(direct, 200, 1000);
  await perCallUs(viaBroker, 200, 200);
  const directUs = await perCallUs(direct, bounds.ms, bounds.maxCalls);
  const brokerUs = await perCallUs(viaBroker, bounds.ms, bounds.maxCalls);
  return {
    calls: bounds.maxCalls,
    directUs: round(directUs, 2),
    brokerUs: round(brokerUs, 1),
    ratio: round(brokerUs / directUs, 1),
  };
}
