// The backplane bench's measurements: send_message throughput over MCP, PRIVMSG throughput
// over IRC (lines stored per second), and the delay from send_message to IRC clients
// receiving the envelope. Every loop is bounded by a count and a time cap; loopback only.
import { performance } from 'node:perf_hooks';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { Core } from '../../src/core/index.js';
import { callTool } from '../lib/connect.js';
import { quantile } from '../lib/measure.js';
import type { BenchIrcClient } from './irc-client.js';

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

export interface RateResult {
  connections: number;
  messages: number;
  failed: number;
  seconds: number;
  messagesPerSecond: number;
}

/** Parallel send_message loops until the time cap or the count cap. */
export async function measureMcpSend(
  clients: readonly Client[],
  channel: string,
  bounds: { ms: number; maxEach: number },
): Promise<RateResult> {
  let messages = 0;
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, w) => {
      for (let i = 0; i < bounds.maxEach && performance.now() - start < bounds.ms; i++) {
        const r = await callTool(client, 'send_message', {
          channel,
          type: 'task.update',
          payload: { worker: w, i },
        });
        if (r.isError) failed++;
        else messages++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const messagesPerSecond = Math.round(messages / seconds);
  return {
    connections: clients.length,
    messages,
    failed,
    seconds: round(seconds, 2),
    messagesPerSecond,
  };
}

/** Every connection pipelines `each` PRIVMSGs; the rate is stored messages per second. */
export async function measureIrcSend(
  core: Core,
  clients: readonly BenchIrcClient[],
  channel: string,
  bounds: { each: number; ms: number },
): Promise<RateResult> {
  const bp = core.backplane;
  const from = await bp.cursor(channel);
  const total = clients.length * bounds.each;
  const start = performance.now();
  clients.forEach((c, w) =>
    c.send(Array.from({ length: bounds.each }, (_, i) => `PRIVMSG ${channel} :w${w} line ${i}`)),
  );
  let stored = 0;
  while (stored < total && performance.now() - start < bounds.ms) {
    await bp.waitForMessage(channel, from + stored, 200);
    stored = (await bp.cursor(channel)) - from;
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    connections: clients.length,
    messages: stored,
    failed: total - stored,
    seconds: round(seconds, 2),
    messagesPerSecond: Math.round(stored / seconds),
  };
}

export interface DelayResult {
  clients: number;
  sends: number;
  samples: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** One send_message at a time; each IRC client's receive time is one sample. */
export async function measureDelay(
  sender: Client,
  clients: readonly BenchIrcClient[],
  channel: string,
  bounds: { sends: number; timeoutMs: number },
): Promise<DelayResult> {
  const delays: number[] = [];
  let timeouts = 0;
  for (let i = 0; i < bounds.sends; i++) {
    const marker = `"probe":${i}}`;
    const t0 = performance.now();
    const arrivals = clients.map(
      (c) =>
        new Promise<number | undefined>((resolve) => {
          const timer = setTimeout(() => resolve(undefined), bounds.timeoutMs);
          c.onLine = (line) => {
            if (!line.includes(' PRIVMSG ') || !line.includes(marker)) return;
            clearTimeout(timer);
            resolve(performance.now() - t0);
          };
        }),
    );
    await callTool(sender, 'send_message', { channel, type: 'bench.probe', payload: { probe: i } });
    for (const d of await Promise.all(arrivals)) {
      if (d === undefined) timeouts++;
      else delays.push(d);
    }
  }
  delays.sort((a, b) => a - b);
  return {
    clients: clients.length,
    sends: bounds.sends,
    samples: delays.length,
    timeouts,
    p50Ms: round(quantile(delays, 0.5), 2),
    p99Ms: round(quantile(delays, 0.99), 2),
    maxMs: round(delays.at(-1) ?? 0, 2),
  };
}
