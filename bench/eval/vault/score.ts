// The vault eval's metrics: reciprocal rank of the first gold session, hit@1 and hit@5, per
// category and overall, and latency quantiles. Pure functions.
import { quantile } from '../../lib/measure.js';
import type { VaultQuestion } from './data.js';

export interface ModeMetrics {
  questions: number;
  mrr: number;
  hit1: number;
  hit5: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Judged {
  category: VaultQuestion['category'];
  rr: number;
  hit1: number;
  hit5: number;
  ms: number;
}

/** Scores one ranked list of document paths (best first; duplicates count once). */
export function judge(q: VaultQuestion, ranked: readonly string[], ms: number): Judged {
  const gold = new Set(q.gold);
  const distinct = [...new Set(ranked)];
  const first = distinct.findIndex((p) => gold.has(p));
  return {
    category: q.category,
    rr: first === -1 ? 0 : 1 / (first + 1),
    hit1: first === 0 ? 1 : 0,
    hit5: first !== -1 && first < 5 ? 1 : 0,
    ms,
  };
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export function summarise(judged: readonly Judged[]): ModeMetrics {
  const n = judged.length;
  const mean = (f: (j: Judged) => number): number =>
    n === 0 ? 0 : r3(judged.reduce((s, j) => s + f(j), 0) / n);
  const times = judged.map((j) => j.ms).sort((a, b) => a - b);
  return {
    questions: n,
    mrr: mean((j) => j.rr),
    hit1: mean((j) => j.hit1),
    hit5: mean((j) => j.hit5),
    p50Ms: Math.round(quantile(times, 0.5) * 100) / 100,
    p99Ms: Math.round(quantile(times, 0.99) * 100) / 100,
  };
}

/** Overall and per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop). */
export function byCategory(judged: readonly Judged[]): Record<string, ModeMetrics> {
  const out: Record<string, ModeMetrics> = { all: summarise(judged) };
  for (const c of [1, 2, 3, 4] as const)
    out[String(c)] = summarise(judged.filter((j) => j.category === c));
  return out;
}
