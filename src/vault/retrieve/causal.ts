// The shared causal pipeline of intent_search, memory_retrieve's causal route and query_plan's
// clauses: anchors (the query pipeline) → intent-weighted composite → one bounded causal hop
// each way (causal-hop.ts) → one ranked list whose hop results carry `causal` marks. The WHY
// lane (default-filtered callers, WHY intent) adds _clawmem observations as anchors. The
// callers differ only in filters and declared stages; the reports say what ran, never more.
import { INTERNAL_COLLECTION, type Store, type VaultFilter } from '../../store/index.js';
import type { Intent, QueryOutcome, StageReport } from '../query/index.js';
import { compositeOrder, scoreAll, WEIGHT_PROFILES } from '../scoring/index.js';
import {
  candidateOf,
  candidatesOf,
  type DocCandidate,
  leadSnippet,
  textDocHits,
} from './candidates.js';
import { type CausalMark, causalHop } from './causal-hop.js';
import { hitOf, type VaultHit } from './hits.js';
import { pipelineCandidates, type QueryStages } from './query.js';
import type { RetrieveDeps } from './search.js';

/** Content types an intent favours (×INTENT_BOOST on the composite), by intent. */
export const INTENT_TYPES: Readonly<Record<Intent, readonly string[]>> = {
  WHY: ['decision', 'research', 'deduction', 'observation'],
  WHEN: ['session', 'handoff', 'progress'],
  ENTITY: ['reference', 'note'],
  WHAT: [],
};
export const INTENT_BOOST = 1.15;
/** Observation anchors the WHY lane adds at most. */
export const WHY_LANE_ANCHORS = 3;

export type GraphDeps = RetrieveDeps & { readonly store: Store };

/** A ranked document: anchors by intent-weighted composite, hop results by their hop score. */
export interface Ranked {
  doc: DocCandidate;
  rank: number;
  raw: number;
  causal: CausalMark[];
}

export type CausalHit = VaultHit & { causal?: CausalMark[] };

export interface CausalStages {
  intentWeighting: string;
  whyLane: string;
  graphTraversal: string;
  adaptiveTraversal: string;
  mpfp: string;
  entityExpansion: string;
}

export interface CausalArgs {
  query: string;
  intent: Intent;
  /** Results kept; the best `limit` candidates are the hop's anchors. */
  limit: number;
  candidateLimit: number;
  /** false: anchors and rerank only (enable_graph_traversal: false). */
  graph: boolean;
  /** Anchors and hop results both pass this filter (its collection policy included). */
  filter: VaultFilter;
  /** Whether this caller has the WHY lane (the default-filtered ones). */
  whyLane: boolean;
}

export interface CausalRun {
  ranked: Ranked[];
  outcome: QueryOutcome;
  stages: StageReport & CausalStages;
  /** Docids of the WHY lane's observation anchors. */
  laneAnchors: string[];
}

const boost = (intent: Intent, type: string): number =>
  INTENT_TYPES[intent].includes(type) ? INTENT_BOOST : 1;

/** Scores candidates and weights them by intent, best first. */
function rankAll(candidates: readonly DocCandidate[], intent: Intent, now: number): Ranked[] {
  return scoreAll(candidates, WEIGHT_PROFILES.default, now)
    .map((s) => ({ s, rank: s.composite.compositeScore * boost(intent, s.doc.contentType) }))
    .sort((a, b) => b.rank - a.rank || compositeOrder(a.s, b.s))
    .map(({ s, rank }) => ({ doc: s.doc, rank, raw: s.raw, causal: [] }));
}

/** Observation documents of _clawmem (observations/, type observation) matching the query. */
async function observationAnchors(
  deps: GraphDeps,
  args: CausalArgs,
  taken: ReadonlySet<number>,
): Promise<Ranked[]> {
  const filter = { ...args.filter, collections: [INTERNAL_COLLECTION] };
  const hits = await textDocHits(deps.index, args.query, filter, WHY_LANE_ANCHORS * 4);
  const candidates = await candidatesOf(deps.index, args.filter.vault, hits);
  const observations = candidates.filter(
    (c) =>
      c.path.startsWith('observations/') && c.contentType === 'observation' && !taken.has(c.row.id),
  );
  return rankAll(observations, args.intent, deps.now()).slice(0, WHY_LANE_ANCHORS);
}

/** Hop documents not among the candidates: their rows, with their first fragment as snippet. */
async function hopCandidates(deps: GraphDeps, vault: string, ids: readonly number[]) {
  const rows = await deps.index.documentsById(vault, ids);
  return Promise.all(
    rows.map(async (row) => {
      const [first] = await deps.index.fragmentsOf(row.id);
      const snippet = first === undefined ? '' : leadSnippet(first);
      return candidateOf(row, {
        fragmentId: first?.id ?? 0,
        documentId: row.id,
        score: 0,
        snippet,
      });
    }),
  );
}

const NOT_IMPLEMENTED = {
  adaptiveTraversal:
    'not run: Cairn has no adaptive (multi-hop beam) traversal; one bounded hop runs instead',
  mpfp: 'not run: Cairn does not implement MPFP propagation',
  entityExpansion:
    'not run: Cairn does not implement entity co-occurrence expansion (it cannot honour row-level eligibility)',
};
const DISABLED = 'disabled (enable_graph_traversal: false)';

function laneReport(args: CausalArgs, lane: readonly Ranked[]): string {
  if (!args.whyLane)
    return 'not run: this caller has no WHY lane (only memory_retrieve causal and query_plan)';
  if (args.intent !== 'WHY') return `not run: intent ${args.intent} (the lane is for WHY queries)`;
  return lane.length === 0
    ? 'ran: no _clawmem observation matched'
    : `ran: ${lane.length} observation anchor(s)`;
}

/** Joins the hop's documents into `ranked` (marks on anchors and candidates, new rows added). */
async function joinHop(deps: GraphDeps, args: CausalArgs, ranked: Ranked[], anchors: Ranked[]) {
  const hop = await causalHop(
    deps.store,
    anchors.map((a) => ({ id: a.doc.row.id, docid: `#${a.doc.row.docid}`, rank: a.rank })),
    args.filter,
  );
  const byId = new Map(ranked.map((r) => [r.doc.row.id, r]));
  for (const [id, marks] of hop.anchorMarks) byId.get(id)?.causal.push(...marks);
  const fresh = [...hop.reached.keys()].filter((id) => !byId.has(id));
  for (const doc of await hopCandidates(deps, args.filter.vault, fresh))
    ranked.push({ doc, rank: 0, raw: 0, causal: [] });
  for (const r of ranked) {
    const h = hop.reached.get(r.doc.row.id);
    if (h === undefined) continue;
    r.rank = Math.max(r.rank, h.score);
    r.causal.push(...h.marks);
  }
  return hop.report;
}

/** The pipeline: anchors → intent weighting → (WHY lane) → one causal hop each way. */
export async function runCausalPipeline(
  deps: GraphDeps,
  stages: QueryStages,
  args: CausalArgs,
): Promise<CausalRun> {
  const { outcome, candidates } = await pipelineCandidates(deps, stages, {
    query: args.query,
    candidateLimit: args.candidateLimit,
    filter: args.filter,
  });
  const ranked = rankAll(candidates, args.intent, deps.now());
  const lane =
    args.whyLane && args.intent === 'WHY'
      ? await observationAnchors(deps, args, new Set(ranked.map((r) => r.doc.row.id)))
      : [];
  const anchors = [...ranked.slice(0, args.limit), ...lane];
  ranked.push(...lane);
  const order = new Map(ranked.map((r, i) => [r.doc.row.id, i]));
  const graphTraversal = args.graph ? await joinHop(deps, args, ranked, anchors) : DISABLED;
  const at = (r: Ranked): number => order.get(r.doc.row.id) ?? Number.MAX_SAFE_INTEGER;
  ranked.sort((a, b) => b.rank - a.rank || at(a) - at(b) || a.doc.row.id - b.doc.row.id);
  const types = INTENT_TYPES[args.intent];
  return {
    ranked,
    outcome,
    laneAnchors: lane.map((r) => `#${r.doc.row.docid}`),
    stages: {
      ...outcome.stages,
      intentWeighting:
        types.length === 0 ? 'none (WHAT)' : `×${INTENT_BOOST} for ${types.join(', ')}`,
      whyLane: laneReport(args, lane),
      graphTraversal,
      ...(args.graph
        ? NOT_IMPLEMENTED
        : { adaptiveTraversal: DISABLED, mpfp: DISABLED, entityExpansion: DISABLED }),
    },
  };
}

/** The answer item of a ranked document: its hit, plus `causal` when a hop reached it. */
export function causalHitOf(r: Ranked, compact: boolean): CausalHit {
  const hit = hitOf(r.doc, { ranking: r.rank, raw: r.raw, basis: 'composite' }, compact);
  return r.causal.length === 0 ? hit : { ...hit, causal: r.causal };
}
