// intent_search (intent classified or forced; unfiltered) and query_plan (one pipeline run
// per clause, fused): both run the shared causal pipeline (causal.ts), as does memory_retrieve's
// causal route through intentSearch with the default filter and the WHY lane.
import { fuseLists } from '../../search/index.js';
import type { VaultFilter } from '../../store/index.js';
import { classifyIntent, type Intent, planClauses, type StageReport } from '../query/index.js';
import {
  type CausalHit,
  causalHitOf,
  type CausalStages,
  type GraphDeps,
  type Ranked,
  runCausalPipeline,
} from './causal.js';
import { DEFAULT_QUERY_STAGES, type QueryStages } from './query.js';

export interface IntentAnswer {
  query: string;
  intent: Intent;
  intentSource: 'forced' | 'classified';
  cue: string;
  scoreBasis: 'composite';
  results: CausalHit[];
  stages: StageReport & CausalStages;
  /** Docids of the WHY lane's observation anchors (memory_retrieve's causal route). */
  observationLane: string[];
}

export async function intentSearch(
  deps: GraphDeps,
  args: {
    query: string;
    limit: number;
    forceIntent?: Intent | undefined;
    graph: boolean;
    filter: VaultFilter;
    /** memory_retrieve's causal route keeps the default filter and has the WHY lane. */
    keepFilter?: boolean;
    compact?: boolean;
  },
  stages: QueryStages = deps.stages ?? DEFAULT_QUERY_STAGES,
): Promise<IntentAnswer> {
  const classified = classifyIntent(args.query);
  const intent = args.forceIntent ?? classified.value;
  const keep = args.keepFilter === true;
  const run = await runCausalPipeline(deps, stages, {
    query: args.query,
    intent,
    limit: args.limit,
    candidateLimit: Math.max(30, args.limit * 3),
    graph: args.graph,
    filter: keep ? args.filter : { ...args.filter, includeInternal: true },
    whyLane: keep,
  });
  return {
    query: args.query,
    intent,
    intentSource: args.forceIntent === undefined ? 'classified' : 'forced',
    cue: args.forceIntent === undefined ? classified.cue : 'force_intent',
    scoreBasis: 'composite',
    results: run.ranked.slice(0, args.limit).map((r) => causalHitOf(r, args.compact === true)),
    stages: run.stages,
    observationLane: run.laneAnchors,
  };
}

export interface PlanAnswer {
  query: string;
  clauses: {
    clause: string;
    intent: Intent;
    results: CausalHit[];
    stages: StageReport & CausalStages;
  }[];
  scoreBasis: 'composite';
  results: CausalHit[];
  degraded: boolean;
  degradedLegs: { leg: string; reason: string }[];
}

/** The first ranking of each document over the clauses, with every clause's causal marks. */
function mergeRuns(runs: readonly { ranked: readonly Ranked[] }[]): Map<number, Ranked> {
  const byDoc = new Map<number, Ranked>();
  for (const r of runs.flatMap((run) => run.ranked)) {
    const seen = byDoc.get(r.doc.row.id);
    if (seen === undefined) byDoc.set(r.doc.row.id, { ...r, causal: [...r.causal] });
    else
      for (const m of r.causal)
        if (
          !seen.causal.some((c) => c.anchorDocid === m.anchorDocid && c.direction === m.direction)
        )
          seen.causal.push(m);
  }
  return byDoc;
}

type PlanArgs = { query: string; limit: number; compact: boolean; filter: VaultFilter };

/** Each clause through the causal pipeline: its own intent, the caller's filter, the WHY lane. */
async function runClauses(deps: GraphDeps, stages: QueryStages, args: PlanArgs) {
  const runs = [];
  for (const clause of planClauses(args.query)) {
    const intent = classifyIntent(clause).value;
    const run = await runCausalPipeline(deps, stages, {
      ...{ query: clause, intent, limit: args.limit, candidateLimit: 30 },
      ...{ graph: true, filter: args.filter, whyLane: true },
    });
    runs.push({ clause, intent, ...run });
  }
  return runs;
}

/** query_plan: the clauses' causal pipeline runs, fused by RRF. */
export async function queryPlan(
  deps: GraphDeps,
  args: PlanArgs,
  stages: QueryStages = deps.stages ?? DEFAULT_QUERY_STAGES,
): Promise<PlanAnswer> {
  const runs = await runClauses(deps, stages, args);
  const degradedLegs = runs.flatMap((r, i) =>
    r.outcome.degradedLegs.map((d) => ({ leg: `clause ${i + 1} ${d.leg}`, reason: d.reason })),
  );
  const byDoc = mergeRuns(runs);
  const fused = fuseLists(
    runs.map((r, i) => ({
      name: `clause ${i + 1}`,
      weight: 1,
      ids: r.ranked.map((x) => x.doc.row.id),
    })),
  );
  return {
    query: args.query,
    clauses: runs.map((r) => ({
      clause: r.clause,
      intent: r.intent,
      results: r.ranked.slice(0, args.limit).map((x) => causalHitOf(x, args.compact)),
      stages: r.stages,
    })),
    scoreBasis: 'composite',
    results: fused.slice(0, args.limit).flatMap((f) => {
      const r = byDoc.get(f.id);
      return r === undefined ? [] : [causalHitOf(r, args.compact)];
    }),
    degraded: degradedLegs.length > 0,
    degradedLegs,
  };
}
