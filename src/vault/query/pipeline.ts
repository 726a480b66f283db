// The query tool's pipeline over injected channels: BM25 first pass → strong-signal bypass →
// expansion → BM25 and vector lists for the original and the expanded query → weighted RRF
// (the original above its expansion) → rerank of the top candidateLimit. Knows no store: the
// caller passes the channels. Reports which stages ran and why a stage was skipped.
import { fuseLists, type RankedList, tokenize } from '../../search/index.js';
import type { Expansion, QueryExpander } from './expand.js';
import type { Reranker } from './rerank.js';

/** Strong signal: the first BM25 hit at least this high… */
export const STRONG_SIGNAL_SCORE = 0.85;
/** …and at least this far above the second. */
export const STRONG_SIGNAL_GAP = 0.15;
export const DEFAULT_CANDIDATE_LIMIT = 30;
/** RRF constant of the pipeline's fusion. */
export const QUERY_RRF_K = 60;
/**
 * The vector lists' weight relative to BM25's. The vault eval (LoCoMo, the local model) chose 0
 * on its tuning half: every weight tried (0.05–0.25, k 2–60) lost MRR to BM25's order. The legs
 * still run: they add candidates for the reranker and its cosine feature.
 */
export const VECTOR_LIST_WEIGHT = 0;

/** The fusion's constants: RRF k and the vector lists' weight (the vault eval measures them). */
export interface QueryFusion {
  readonly k: number;
  readonly vectorWeight: number;
}
export const QUERY_FUSION: QueryFusion = { k: QUERY_RRF_K, vectorWeight: VECTOR_LIST_WEIGHT };

export interface TextHit {
  readonly id: number;
  /** Raw BM25 transform in [0, 1). */
  readonly score: number;
}
export interface VectorHit {
  readonly id: number;
  readonly cosine: number;
}
/** A vector leg's answer: its hits, and the degraded marker when the scan was capped short. */
export interface VectorLeg {
  readonly hits: readonly VectorHit[];
  readonly degradedReason: 'excluded-dominant' | 'cap-truncation' | null;
}

export interface QueryChannels {
  text(query: string, limit: number): Promise<readonly TextHit[]>;
  /** null when no embedder is configured. */
  vector: ((query: string, limit: number) => Promise<VectorLeg>) | null;
  /** Title and text of candidates, for expansion feedback and the reranker. */
  texts(ids: readonly number[]): Promise<ReadonlyMap<number, { title: string; text: string }>>;
  /** Document frequencies of (tokenized) terms and the corpus size, for expansion's idf. */
  termStats(
    terms: readonly string[],
  ): Promise<{ df: ReadonlyMap<string, number>; fragments: number }>;
}

/** The stages the pipeline runs: one expander, one reranker, and the fusion constants. */
export interface QueryStages {
  readonly expander: QueryExpander;
  readonly reranker: Reranker;
  /** RRF k and vector weight; default QUERY_FUSION. */
  readonly fusion?: QueryFusion | undefined;
}

export interface QueryInput {
  readonly query: string;
  readonly intent?: string | undefined;
  readonly candidateLimit?: number | undefined;
}

export interface StageReport {
  readonly expansion: string;
  readonly vector: string;
  readonly fusion: string;
  readonly rerank: string;
}

export interface QueryHit {
  readonly id: number;
  readonly score: number;
  readonly bm25: number;
  readonly cosine: number | null;
  readonly fusedRank: number;
  readonly ranks: Readonly<Record<string, number>>;
}

export interface QueryOutcome {
  readonly hits: readonly QueryHit[];
  readonly stages: StageReport;
  readonly expansion: Expansion | null;
  readonly bypassed: boolean;
  readonly degradedLegs: readonly { leg: string; reason: string }[];
}

/** List names for fusion: the source, numbered when a source gives several queries. */
function listNames(queries: readonly { source: string }[]): string[] {
  const count = new Map<string, number>();
  for (const q of queries) count.set(q.source, (count.get(q.source) ?? 0) + 1);
  const seen = new Map<string, number>();
  return queries.map((q) => {
    const n = (seen.get(q.source) ?? 0) + 1;
    seen.set(q.source, n);
    return (count.get(q.source) ?? 0) > 1 ? `${q.source}${n}` : q.source;
  });
}

/** Whether the first pass is decisive enough to skip expansion (never when `intent` is set). */
export function strongSignal(scores: readonly number[], intent?: string): boolean {
  if (intent !== undefined && intent.trim() !== '') return false;
  const top = scores[0] ?? 0;
  const second = scores[1] ?? 0;
  return top >= STRONG_SIGNAL_SCORE && top - second >= STRONG_SIGNAL_GAP;
}

export async function runQuery(
  channels: QueryChannels,
  stages: QueryStages,
  input: QueryInput,
): Promise<QueryOutcome> {
  const fusion = stages.fusion ?? QUERY_FUSION;
  const limit = input.candidateLimit ?? DEFAULT_CANDIDATE_LIMIT;
  const first = await channels.text(input.query, limit);
  const bypassed = strongSignal(
    first.map((h) => h.score),
    input.intent,
  );
  let expansion: Expansion | null = null;
  if (!bypassed && first.length > 0) {
    const texts = await channels.texts(first.slice(0, 5).map((h) => h.id));
    const feedback = first.slice(0, 5).flatMap((h) => {
      const t = texts.get(h.id);
      return t === undefined ? [] : [`${t.title}\n${t.text}`];
    });
    const stats = await channels.termStats([
      ...new Set(feedback.flatMap((f) => tokenize(f).map((t) => t.term))),
    ]);
    expansion = await stages.expander.expand({
      query: input.query,
      intent: input.intent,
      feedback,
      df: (t) => stats.df.get(t) ?? 0,
      documents: stats.fragments,
    });
  }
  const queries = expansion?.queries ?? [
    { text: input.query, weight: 1, source: 'original' as const },
  ];
  const lists: RankedList[] = [];
  const bm25 = new Map<number, number>();
  const cosine = new Map<number, number>();
  const degradedLegs: { leg: string; reason: string }[] = [];
  const names = listNames(queries);
  for (const [i, q] of queries.entries()) {
    const name = names[i] ?? q.source;
    const text = i === 0 ? first : await channels.text(q.text, limit);
    for (const h of text) bm25.set(h.id, Math.max(bm25.get(h.id) ?? 0, i === 0 ? h.score : 0));
    lists.push({ name: `${name}:bm25`, weight: q.weight, ids: text.map((h) => h.id) });
    if (channels.vector !== null) {
      const leg = await channels.vector(q.text, limit);
      for (const h of leg.hits) cosine.set(h.id, Math.max(cosine.get(h.id) ?? -1, h.cosine));
      lists.push({
        name: `${name}:vector`,
        weight: q.weight * fusion.vectorWeight,
        ids: leg.hits.map((h) => h.id),
      });
      if (leg.degradedReason !== null)
        degradedLegs.push({ leg: `${name}:vector`, reason: leg.degradedReason });
    }
  }
  const fused = fuseLists(lists, fusion.k).slice(0, limit);
  const texts = await channels.texts(fused.map((f) => f.id));
  const reranked = await stages.reranker.rerank({
    query: input.query,
    intent: input.intent,
    candidates: fused.map((f, i) => ({
      id: f.id,
      title: texts.get(f.id)?.title ?? '',
      text: texts.get(f.id)?.text ?? '',
      bm25: bm25.get(f.id) ?? 0,
      cosine: cosine.get(f.id) ?? null,
      fusedRank: i + 1,
    })),
  });
  const score = new Map(reranked.results.map((r) => [r.id, r.score]));
  const hits = fused
    .map((f, i) => ({
      id: f.id,
      score: score.get(f.id) ?? 0,
      bm25: bm25.get(f.id) ?? 0,
      cosine: cosine.get(f.id) ?? null,
      fusedRank: i + 1,
      ranks: f.ranks,
    }))
    .sort((a, b) => b.score - a.score || a.fusedRank - b.fusedRank);
  return {
    hits,
    stages: {
      expansion: bypassed
        ? `skipped: strong signal (top BM25 ≥ ${STRONG_SIGNAL_SCORE}, gap ≥ ${STRONG_SIGNAL_GAP})`
        : first.length === 0
          ? 'skipped: the first BM25 pass found nothing'
          : (expansion?.report ??
            `${expansion?.stage ?? 'none'}: ${expansion?.terms.length ?? 0} terms`),
      vector: channels.vector === null ? 'skipped: no embedder' : 'cosine',
      fusion: `rrf k=${fusion.k} over ${lists.length} lists`,
      rerank: reranked.stage,
    },
    expansion,
    bypassed,
    degradedLegs,
  };
}
