// memory_retrieve: the recommended entry point. Classifies the query (or takes `mode`) and
// routes: keyword (BM25, composite), semantic (vsearch, raw cosine), causal (the WHY pipeline,
// default-filtered, plus the WHY observation lane), timeline (session history), discovery
// (find_similar of the document the query names), complex (query_plan), hybrid (query).
import type { Store, VaultFilter } from '../../store/index.js';
import { classifyRoute, type Route } from '../query/index.js';
import { compositeOrder, scoreAll, WEIGHT_PROFILES } from '../scoring/index.js';
import { candidatesOf, textDocHits } from './candidates.js';
import { hitOf, type VaultHit } from './hits.js';
import { findSimilar, sessionLog } from './neighbours.js';
import { queryVault } from './query.js';
import { intentSearch, queryPlan } from './routes.js';
import { type RetrieveDeps, vsearchVault } from './search.js';

export type RetrieveMode =
  'auto' | 'keyword' | 'semantic' | 'causal' | 'timeline' | 'discovery' | 'complex' | 'hybrid';
export type RetrieveRoute = Route | 'keyword' | 'semantic';

export interface RetrieveArgs {
  query: string;
  mode: RetrieveMode;
  limit: number;
  compact: boolean;
  filter: VaultFilter;
}

export interface RetrieveAnswer {
  query: string;
  route: RetrieveRoute;
  routeSource: 'auto' | 'mode';
  cue: string;
  results: VaultHit[] | unknown[];
  /** The routed tool's own answer (stages, regime, degraded markers, clauses, sessions…). */
  detail: Record<string, unknown>;
  note?: string;
}

type Deps = RetrieveDeps & { store: Store };

async function keyword(deps: Deps, a: RetrieveArgs) {
  const hits = await textDocHits(deps.index, a.query, a.filter, a.limit * 3);
  const scored = scoreAll(
    await candidatesOf(deps.index, a.filter.vault, hits),
    WEIGHT_PROFILES.default,
    deps.now(),
  ).sort(compositeOrder);
  const results = scored
    .slice(0, a.limit)
    .map((s) =>
      hitOf(
        s.doc,
        { ranking: s.composite.compositeScore, raw: s.raw, basis: 'composite' },
        a.compact,
      ),
    );
  return { results, detail: { regime: 'composite', scoreBasis: 'composite' } };
}

/** The causal pipeline forced to WHY on the default filter, with the WHY observation lane. */
async function causal(deps: Deps, a: RetrieveArgs) {
  const main = await intentSearch(deps, {
    query: a.query,
    limit: a.limit,
    forceIntent: 'WHY',
    graph: true,
    filter: a.filter,
    keepFilter: true,
    compact: a.compact,
  });
  return {
    results: main.results,
    detail: { intent: main.intent, stages: main.stages, observationLane: main.observationLane },
  };
}

const DISCOVERY_CUE = /\b(?:similar to|related to|more like|like the|see also)\b\s*/i;

async function discovery(deps: Deps, a: RetrieveArgs) {
  const m = DISCOVERY_CUE.exec(a.query);
  const subject = (m === null ? a.query : a.query.slice(m.index + m[0].length)).trim() || a.query;
  const [ref] = await textDocHits(deps.index, subject, a.filter, 5);
  if (ref === undefined || deps.embedder === null) return null;
  const [row] = await deps.index.documentsById(a.filter.vault, [ref.documentId]);
  if (row === undefined) return null;
  const similar = await findSimilar(
    deps,
    a.filter.vault,
    `#${row.docid}`,
    a.limit,
    a.filter.includeInternal === true,
  );
  return {
    results: similar.results,
    detail: {
      reference: similar.reference,
      scoreBasis: similar.scoreBasis,
      ...(similar.degraded === true
        ? { degraded: true, degradedReason: similar.degradedReason }
        : {}),
    },
  };
}

export async function memoryRetrieve(deps: Deps, a: RetrieveArgs): Promise<RetrieveAnswer> {
  const auto = a.mode === 'auto';
  const classified = classifyRoute(a.query);
  const route: RetrieveRoute = auto ? classified.value : a.mode === 'auto' ? 'hybrid' : a.mode;
  const head = {
    query: a.query,
    route,
    routeSource: auto ? ('auto' as const) : ('mode' as const),
    cue: auto ? classified.cue : 'mode',
  };
  switch (route) {
    case 'keyword':
      return { ...head, ...(await keyword(deps, a)) };
    case 'semantic': {
      const r = await vsearchVault(deps, a);
      const { results, ...detail } = r;
      return { ...head, results, detail };
    }
    case 'causal':
      return { ...head, ...(await causal(deps, a)) };
    case 'timeline': {
      const log = await sessionLog(deps, a.filter.vault, a.limit);
      return { ...head, results: log.sessions, detail: { total: log.total } };
    }
    case 'discovery': {
      const found = await discovery(deps, a);
      if (found !== null) return { ...head, ...found };
      const q = await queryVault(deps, { ...a, candidateLimit: 30, profile: 'default' });
      const { results, ...detail } = q;
      return {
        ...head,
        results,
        detail,
        note: 'no reference document (or no embedder) for discovery: answered with hybrid search',
      };
    }
    case 'complex': {
      const p = await queryPlan(deps, a);
      const { results, ...detail } = p;
      return { ...head, results, detail };
    }
    case 'hybrid': {
      const q = await queryVault(deps, { ...a, candidateLimit: 30, profile: 'default' });
      const { results, ...detail } = q;
      return { ...head, results, detail };
    }
  }
}
