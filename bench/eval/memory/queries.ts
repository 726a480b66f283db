// Asks every question through memory.search in one mode, within its conversation's scope, and
// scores the top 10 against the evidence. Latency is the wall time of each search call.
import { performance } from 'node:perf_hooks';

import type { Memory, SearchMode } from '../../../src/memory/index.js';
import type { Conversation, Question } from './data.js';
import { scopeOf } from './ingest.js';
import { type Metrics, quantileMs, type QuestionScore, scoreQuestion, summarise } from './score.js';

export const LIMIT = 10;

export interface ModeResult {
  mode: SearchMode;
  overall: Metrics;
  byCategory: Record<string, Metrics>;
  latencyMs: { p50: number; p99: number; mean: number };
  /** True when any answer came back degraded (vector/hybrid answered by full-text). */
  degraded: boolean;
}

/** Rewrites a question before it is searched (query-side attempts); timed with the search. */
export type Rewrite = (q: Question, c: Conversation) => Promise<string>;

/** Runs all questions of `conversations` in `mode` and scores them. */
export async function runMode(
  search: Memory['search'],
  conversations: readonly Conversation[],
  dialogOf: ReadonlyMap<string, string>,
  mode: SearchMode,
  rewrite?: Rewrite,
): Promise<ModeResult> {
  const scores: QuestionScore[] = [];
  const latencies: number[] = [];
  let degraded = false;
  for (const c of conversations) {
    for (const q of c.questions) {
      const started = performance.now();
      const query = rewrite === undefined ? q.question : await rewrite(q, c);
      const result = await search({
        query,
        mode,
        limit: LIMIT,
        scope: scopeOf(c.sampleId),
      });
      latencies.push(performance.now() - started);
      degraded ||= result.degraded === true;
      const ranked = result.results.flatMap((hit) => {
        const dia = dialogOf.get(hit.id);
        return dia === undefined ? [] : [dia];
      });
      scores.push(scoreQuestion(q, ranked));
    }
  }
  const mean = latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length);
  return {
    mode,
    ...summarise(scores),
    latencyMs: {
      p50: quantileMs(latencies, 0.5),
      p99: quantileMs(latencies, 0.99),
      mean: Math.round(mean * 100) / 100,
    },
    degraded,
  };
}
