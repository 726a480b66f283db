// What an agent binding costs per call: list_tasks from an unbound stdio session vs one bound
// with --agent (holder checks, the refusal circuit's caller, and the inbox piggyback's check on
// every result), on one database. A third kind times a call of another bound agent that finds
// one inbox entry waiting (a peer's comment @mentioning it, posted untimed just before), so its
// answer carries a piggyback. Each kind has its own process, and the three take turns call by
// call in a rotating order, so machine noise and page reloads after the write land on all alike
// (sharing one process between the second and third kind made the second look 15-25% faster
// than unbound: its pages were already reloaded).
import { performance } from 'node:perf_hooks';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { type BenchClient, callTool, closeAll, connectStdio } from '../lib/connect.js';
import { quantile } from '../lib/measure.js';
import { cairnStdio, LIST_TEAM, type Template, type Workspace } from './fixture.js';

export interface BindingKind {
  calls: number;
  p50Ms: number;
  p99Ms: number;
}

export interface BindingResult {
  unbound: BindingKind;
  bound: BindingKind;
  /** Bound calls that each found one inbox entry waiting. */
  boundWithInbox: BindingKind;
  /** Calls of the third kind whose answer did not carry the entry (should be 0). */
  missedPiggybacks: number;
  /** bound p50 / unbound p50 (1.0 = the binding costs nothing). */
  p50Ratio: number;
  withInboxP50Ratio: number;
}

export interface BindingConfig {
  /** Rounds of the three kinds; stops early at `bindingCapMs`. */
  bindingRounds: number;
  bindingWarmup: number;
  bindingCapMs: number;
}

const AGENT = 'bench-bound';
const ADDRESSED = 'bench-addressed';

const summary = (ms: number[]): BindingKind => {
  const sorted = [...ms].sort((a, b) => a - b);
  const round = (v: number): number => Number(v.toFixed(3));
  return {
    calls: ms.length,
    p50Ms: round(quantile(sorted, 0.5)),
    p99Ms: round(quantile(sorted, 0.99)),
  };
};

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Measures the binding's cost over stdio, one client per kind, on a fresh copy of `template`. */
export async function measureBinding(
  ws: Workspace,
  template: Template,
  cfg: BindingConfig,
): Promise<BindingResult> {
  const db = await ws.copy(template, 'binding');
  const opened: BenchClient[] = [];
  try {
    const connect = async (flags: readonly string[] = []): Promise<BenchClient> => {
      const c = await connectStdio(cairnStdio(ws, db, flags));
      opened.push(c);
      return c;
    };
    const unbound = await connect();
    const bound = await connect(['--agent', AGENT]);
    // Its own process and agent: a process that reads right after the peer's write pays for
    // reloading the changed pages, and `bound` must not be spared that by sharing it.
    const addressed = await connect(['--agent', ADDRESSED]);
    const peer = await connect();
    const args = { teamId: LIST_TEAM };
    const target = template.poolIds[0];
    if (target === undefined) throw new Error('binding bench needs one pool task');

    const list = async (c: BenchClient): Promise<void> => {
      if ((await callTool(c.client, 'list_tasks', args)).isError) throw new Error('list_tasks');
    };
    let missed = 0;
    const listWithInbox = async (): Promise<void> => {
      const res = (await addressed.client.callTool({
        name: 'list_tasks',
        arguments: args,
      })) as CallToolResult;
      if (res.isError === true) throw new Error('list_tasks');
      if (res._meta?.['cairn/inbox'] === undefined) missed += 1;
    };
    const address = async (i: number): Promise<void> => {
      const body = `@${ADDRESSED} note ${i}`;
      const res = await callTool(peer.client, 'add_comment', { taskId: target, body });
      if (res.isError) throw new Error(`add_comment: ${res.text}`);
    };

    const samples: [number[], number[], number[]] = [[], [], []];
    const deadline = performance.now() + cfg.bindingCapMs;
    const total = cfg.bindingWarmup + cfg.bindingRounds;
    /** Each kind times its call for round `i` (the third addresses the agent first, untimed). */
    const kinds: ((i: number) => Promise<number>)[] = [
      () => timed(() => list(unbound)),
      () => timed(() => list(bound)),
      async (i) => {
        await address(i);
        return timed(listWithInbox);
      },
    ];
    for (let i = 0; i < total && performance.now() < deadline; i++) {
      // The order rotates each round: the first read after the peer's write pays for reloading
      // changed pages, and no kind should always be the one that pays.
      const round: number[] = [];
      for (let j = 0; j < kinds.length; j++) {
        const k = (i + j) % kinds.length;
        round[k] = await (kinds[k] as (i: number) => Promise<number>)(i);
      }
      if (i < cfg.bindingWarmup) {
        missed = 0;
        continue;
      }
      round.forEach((ms, k) => samples[k]?.push(ms));
    }
    const [u, b, w] = samples.map(summary) as [BindingKind, BindingKind, BindingKind];
    const ratio = (m: BindingKind): number =>
      u.p50Ms > 0 ? Number((m.p50Ms / u.p50Ms).toFixed(2)) : Number.POSITIVE_INFINITY;
    return {
      unbound: u,
      bound: b,
      boundWithInbox: w,
      missedPiggybacks: missed,
      p50Ratio: ratio(b),
      withInboxP50Ratio: ratio(w),
    };
  } finally {
    await closeAll(opened);
  }
}
