// The attempts ladder: every configuration tried, measured in the same run where affordable.
// Fusion and query attempts reuse the final ingest (query vectors memoised in-process: these
// rows measure quality, not latency); chunk-text attempts re-ingest into a fresh database,
// full text only unless --full embeds each of them too.
import type { Core } from '../../../src/core/index.js';
import {
  createMemory,
  createScrubber,
  type FusionOptions,
  type MemoryEmbedder,
  type SearchMode,
} from '../../../src/memory/index.js';
import type { ChunkStyle } from './chunk.js';
import type { Conversation } from './data.js';
import {
  documentFrequencies,
  expandQuery,
  normaliseQuestion,
  type QueryTransform,
} from './expand.js';
import { type ModeResult, type Rewrite, runMode } from './queries.js';
import type { Metrics } from './score.js';

export type AttemptStage = 'chunk' | 'fusion' | 'query';

export interface Attempt {
  stage: AttemptStage;
  style: ChunkStyle;
  change: string;
  mode: SearchMode;
  overall: Metrics;
  byCategory: Record<string, Metrics>;
  measuredAt: string;
  /** Carried over from an earlier (--full) run because this run did not measure it. */
  carried?: boolean;
}

export interface QuerySpec {
  stage: AttemptStage;
  change: string;
  mode: SearchMode;
  fusion?: FusionOptions;
  transform?: QueryTransform;
}

/** The product's default hybrid (no fusion options): its row comes from the headline run. */
export const DEFAULT_FUSION_CHANGE = 'RRF k 5, vector weight 0.25 (new default)';

/** Hybrid as first shipped: equal-weight RRF, k 60, 30 candidates per channel. */
export const OLD_DEFAULT_RRF: FusionOptions = {
  method: 'rrf',
  k: 60,
  ftsWeight: 1,
  vectorWeight: 1,
  depth: 30,
};

/** Fusion settings tried on every embedded chunk style. */
export const FUSION_SPECS: readonly QuerySpec[] = [
  {
    stage: 'fusion',
    change: 'RRF k 60, equal weights, 30 candidates (old default)',
    mode: 'hybrid',
    fusion: OLD_DEFAULT_RRF,
  },
  {
    stage: 'fusion',
    change: 'RRF k 60, vector weight 0.3',
    mode: 'hybrid',
    fusion: { method: 'rrf', k: 60, vectorWeight: 0.3 },
  },
  { stage: 'fusion', change: DEFAULT_FUSION_CHANGE, mode: 'hybrid' },
  {
    stage: 'fusion',
    change: 'z-score fusion, weights 0.7 / 0.3 (`method: zscore`)',
    mode: 'hybrid',
    fusion: { method: 'zscore' },
  },
];

const QUERY_SPECS: readonly QuerySpec[] = [
  {
    stage: 'query',
    change: 'question normalised (clitics, filler words dropped)',
    mode: 'fts',
    transform: 'normalise',
  },
  { stage: 'query', change: 'question normalised', mode: 'hybrid', transform: 'normalise' },
  {
    stage: 'query',
    change: 'pseudo-relevance feedback (top 3 hits, +5 terms)',
    mode: 'fts',
    transform: 'prf',
  },
  { stage: 'query', change: 'pseudo-relevance feedback', mode: 'hybrid', transform: 'prf' },
];

/** Wraps an embedder so each distinct text is embedded once per run (in memory only). */
export function memoised(embedder: MemoryEmbedder): MemoryEmbedder {
  const cache = new Map<string, Float32Array>();
  return {
    model: embedder.model,
    warm: () => embedder.warm(),
    isReady: () => embedder.isReady(),
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      const vectors = missing.length === 0 ? [] : await embedder.embed(missing);
      missing.forEach((t, i) => {
        const v = vectors[i];
        if (v !== undefined) cache.set(t, v);
      });
      return texts.flatMap((t) => {
        const v = cache.get(t);
        return v === undefined ? [] : [v];
      });
    },
  };
}

async function rewriterFor(
  transform: QueryTransform | undefined,
  core: Core,
  conversations: readonly Conversation[],
): Promise<Rewrite | undefined> {
  if (transform === undefined || transform === 'none') return undefined;
  if (transform === 'normalise') return (q) => Promise.resolve(normaliseQuestion(q.question));
  const stats = new Map<string, { df: Map<string, number>; n: number }>();
  for (const c of conversations) {
    const rows = await core.store.all<{ text: string }>(
      "SELECT title || ' ' || content AS text FROM memory_items WHERE team_id = ?",
      [c.sampleId],
    );
    stats.set(c.sampleId, { df: documentFrequencies(rows.map((r) => r.text)), n: rows.length });
  }
  return (q, c) => {
    const s = stats.get(c.sampleId) ?? { df: new Map<string, number>(), n: 1 };
    return expandQuery(core.memory, q.question, { teamId: c.sampleId }, s.df, s.n, {
      docs: 3,
      terms: 5,
    });
  };
}

/** An attempt row from a measured result. */
export const toAttempt = (spec: QuerySpec, style: ChunkStyle, r: ModeResult): Attempt => ({
  stage: spec.stage,
  style,
  change: spec.change,
  mode: r.mode,
  overall: r.overall,
  byCategory: r.byCategory,
  measuredAt: new Date().toISOString(),
});

export interface SpecContext {
  core: Core;
  style: ChunkStyle;
  conversations: readonly Conversation[];
  dialogOf: ReadonlyMap<string, string>;
  /** The query embedder for these rows: `memoised(core.embedder)`, shared across specs. */
  embedder: MemoryEmbedder | null;
  log: (line: string) => void;
}

/**
 * Measures `specs` over an ingested core: each spec gets a memory service with its fusion
 * options over the same store.
 */
export async function measureSpecs(
  ctx: SpecContext,
  specs: readonly QuerySpec[],
): Promise<Attempt[]> {
  const { core, style, conversations, dialogOf, embedder, log } = ctx;
  const out: Attempt[] = [];
  for (const spec of specs) {
    const memory = createMemory(core.store, {
      scrubber: createScrubber(),
      embedder,
      ...(spec.fusion === undefined ? {} : { fusion: spec.fusion }),
    });
    const rewrite = await rewriterFor(spec.transform, core, conversations);
    const r = await runMode(memory.search, conversations, dialogOf, spec.mode, rewrite);
    log(`  ${style} · ${spec.mode} · ${spec.change}: R@5 ${r.overall.r5} MRR ${r.overall.mrr}`);
    out.push(toAttempt(spec, style, r));
  }
  return out;
}

/** The query-side attempts run on the final chunk style. */
export const querySpecs = (): readonly QuerySpec[] => QUERY_SPECS;

/** Adds rows of `previous` (an earlier full run) that `current` did not measure, marked carried. */
export function carryForward(current: Attempt[], previous: readonly Attempt[]): Attempt[] {
  const key = (a: Attempt): string => `${a.stage}|${a.style}|${a.mode}|${a.change}`;
  const have = new Set(current.map(key));
  const carried = previous.filter((a) => !have.has(key(a))).map((a) => ({ ...a, carried: true }));
  return [...current, ...carried];
}
