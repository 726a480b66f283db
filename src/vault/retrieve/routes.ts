// intent_search (intent classified or forced; anchors by the query pipeline, weighted by
// intent; unfiltered), query_plan (one pipeline run per clause, fused) and memory_retrieve's
// routing. The causal graph arrives with the graph issue: until then the traversal stages do
// not run and every answer says so instead of pretending.
import { fuseLists } from '../../search/index.js';
import type { VaultFilter } from '../../store/index.js';
import { classifyIntent, type Intent, planClauses, type StageReport } from '../query/index.js';
import { compositeOrder, scoreAll, type Scored, WEIGHT_PROFILES } from '../scoring/index.js';
import type { DocCandidate } from './candidates.js';
import { hitOf, type VaultHit } from './hits.js';
import { DEFAULT_QUERY_STAGES, pipelineCandidates, type QueryStages } from './query.js';
import type { RetrieveDeps } from './search.js';

/** What the graph stages say until causal links exist. */
export const GRAPH_PENDING =
  'not run: no causal graph yet (causal links, build_graphs and find_causal_links come with the graph tools)';

/** Content types an intent favours (×1.15 on the composite), by intent. */
const INTENT_TYPES: Readonly<Record<Intent, readonly string[]>> = {
  WHY: ['decision', 'research', 'deduction', 'observation'],
  WHEN: ['session', 'handoff', 'progress'],
  ENTITY: ['reference', 'note'],
  WHAT: [],
};
const INTENT_BOOST = 1.15;

export interface IntentAnswer {
  query: string;
  intent: Intent;
  intentSource: 'forced' | 'classified';
  cue: string;
  scoreBasis: 'composite';
  results: VaultHit[];
  stages: StageReport & { graphTraversal: string; intentWeighting: string };
}

const rankOf = (s: Scored<DocCandidate>, intent: Intent): number =>
  s.composite.compositeScore *
  (INTENT_TYPES[intent].includes(s.doc.contentType) ? INTENT_BOOST : 1);

export async function intentSearch(
  deps: RetrieveDeps,
  args: {
    query: string;
    limit: number;
    forceIntent?: Intent | undefined;
    graph: boolean;
    filter: VaultFilter;
    /** memory_retrieve's causal route keeps the default filter; intent_search is unfiltered. */
    keepFilter?: boolean;
  },
  stages: QueryStages = deps.stages ?? DEFAULT_QUERY_STAGES,
): Promise<IntentAnswer> {
  const classified = classifyIntent(args.query);
  const intent = args.forceIntent ?? classified.value;
  const { outcome, candidates } = await pipelineCandidates(deps, stages, {
    query: args.query,
    candidateLimit: Math.max(30, args.limit * 3),
    filter: args.keepFilter === true ? args.filter : { ...args.filter, includeInternal: true },
  });
  const scored = scoreAll(candidates, WEIGHT_PROFILES.default, deps.now())
    .map((s) => ({ s, rank: rankOf(s, intent) }))
    .sort((a, b) => b.rank - a.rank || compositeOrder(a.s, b.s));
  return {
    query: args.query,
    intent,
    intentSource: args.forceIntent === undefined ? 'classified' : 'forced',
    cue: args.forceIntent === undefined ? classified.cue : 'force_intent',
    scoreBasis: 'composite',
    results: scored
      .slice(0, args.limit)
      .map(({ s, rank }) => hitOf(s.doc, { ranking: rank, raw: s.raw, basis: 'composite' }, false)),
    stages: {
      ...outcome.stages,
      graphTraversal: args.graph ? GRAPH_PENDING : 'disabled (enable_graph_traversal: false)',
      intentWeighting:
        INTENT_TYPES[intent].length === 0
          ? 'none (WHAT)'
          : `×${INTENT_BOOST} for ${INTENT_TYPES[intent].join(', ')}`,
    },
  };
}

export interface PlanAnswer {
  query: string;
  clauses: { clause: string; results: VaultHit[]; stages: StageReport }[];
  scoreBasis: 'composite';
  results: VaultHit[];
  degraded: boolean;
  degradedLegs: { leg: string; reason: string }[];
}

export async function queryPlan(
  deps: RetrieveDeps,
  args: { query: string; limit: number; compact: boolean; filter: VaultFilter },
  stages: QueryStages = deps.stages ?? DEFAULT_QUERY_STAGES,
): Promise<PlanAnswer> {
  const clauses = planClauses(args.query);
  const runs = [];
  const byDoc = new Map<number, Scored<DocCandidate>>();
  const degradedLegs: { leg: string; reason: string }[] = [];
  for (const [i, clause] of clauses.entries()) {
    const { outcome, candidates } = await pipelineCandidates(deps, stages, {
      query: clause,
      candidateLimit: 30,
      filter: args.filter,
    });
    const scored = scoreAll(candidates, WEIGHT_PROFILES.default, deps.now()).sort(compositeOrder);
    for (const s of scored) if (!byDoc.has(s.doc.row.id)) byDoc.set(s.doc.row.id, s);
    for (const d of outcome.degradedLegs)
      degradedLegs.push({ leg: `clause ${i + 1} ${d.leg}`, reason: d.reason });
    runs.push({ clause, scored, stages: outcome.stages });
  }
  const fused = fuseLists(
    runs.map((r, i) => ({
      name: `clause ${i + 1}`,
      weight: 1,
      ids: r.scored.map((s) => s.doc.row.id),
    })),
  );
  const hit = (s: Scored<DocCandidate>, ranking: number) =>
    hitOf(s.doc, { ranking, raw: s.raw, basis: 'composite' }, args.compact);
  return {
    query: args.query,
    clauses: runs.map((r) => ({
      clause: r.clause,
      results: r.scored.slice(0, args.limit).map((s) => hit(s, s.composite.compositeScore)),
      stages: r.stages,
    })),
    scoreBasis: 'composite',
    results: fused.slice(0, args.limit).flatMap((f) => {
      const s = byDoc.get(f.id);
      return s === undefined ? [] : [hit(s, s.composite.compositeScore)];
    }),
    degraded: degradedLegs.length > 0,
    degradedLegs,
  };
}
