// Retrieval metrics: evidence recall@k (fraction of a question's evidence turns in the top k)
// and reciprocal rank of the first evidence turn, averaged per category and overall; latency
// quantiles. Pure functions.
import type { Question } from './data.js';

export interface QuestionScore {
  category: Question['category'];
  r5: number;
  r10: number;
  rr: number;
}

export interface Metrics {
  questions: number;
  r5: number;
  r10: number;
  mrr: number;
}

export const CATEGORY_NAMES: Record<Question['category'], string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

/** Scores one ranked list of dialog ids (best first) against the question's evidence. */
export function scoreQuestion(q: Question, ranked: readonly string[]): QuestionScore {
  const evidence = new Set(q.evidence);
  const found = (k: number): number =>
    ranked.slice(0, k).filter((id) => evidence.has(id)).length / evidence.size;
  const first = ranked.findIndex((id) => evidence.has(id));
  return {
    category: q.category,
    r5: found(5),
    r10: found(10),
    rr: first === -1 ? 0 : 1 / (first + 1),
  };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

function mean(scores: readonly QuestionScore[]): Metrics {
  const n = scores.length;
  const sum = (f: (s: QuestionScore) => number): number =>
    n === 0 ? 0 : round(scores.reduce((acc, s) => acc + f(s), 0) / n);
  return { questions: n, r5: sum((s) => s.r5), r10: sum((s) => s.r10), mrr: sum((s) => s.rr) };
}

/** Overall and per-category means. */
export function summarise(scores: readonly QuestionScore[]): {
  overall: Metrics;
  byCategory: Record<string, Metrics>;
} {
  const byCategory: Record<string, Metrics> = {};
  for (const c of [1, 2, 3, 4] as const) {
    byCategory[String(c)] = mean(scores.filter((s) => s.category === c));
  }
  return { overall: mean(scores), byCategory };
}

/** The q-quantile (0..1) of `values` in ms, nearest-rank, rounded to 0.01 ms. */
export function quantileMs(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 100) / 100;
}
