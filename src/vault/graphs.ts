// build_graphs: the temporal backbone (consecutive active documents of a vault by effective
// time, older → newer) and the semantic graph (pairs whose stored whole-document vectors are at
// least `semantic_threshold` apart in cosine, found by a bounded vector KNN per document). Both
// are re-derived: a rebuild inserts what is missing, removes built edges no longer derived, and
// counts rows written; totals are active edges. Writes go in small transactions.
import { z } from 'zod';

import { activeChain, countActiveEdges, type Store } from '../store/index.js';
import { replaceBuiltEdges } from './graph-edges.js';
import { buildSemantic, type SemanticOptions, type SemanticPass } from './graph-semantic.js';
import type { RetrieveDeps } from './retrieve/search.js';
import { text } from './tool-schemas.js';

export const GRAPH_TYPES = ['temporal', 'semantic', 'all'] as const;

export const buildGraphsInput = z.object({
  graph_types: z
    .array(
      z.enum(GRAPH_TYPES, {
        error: () => `entries must be one of ${GRAPH_TYPES.join(', ')}`,
      }),
      { error: () => 'must be an array' },
    )
    // A refinement, not .min(): zod 4 runs length checks on a string given in place of the
    // array too, which would name the field twice.
    .refine((types) => types.length > 0, 'must name at least one type')
    .default(['all']),
  semantic_threshold: z
    .number({ error: () => 'must be a number' })
    .min(0, 'must be at least 0')
    .max(1, 'must be at most 1')
    .default(0.7),
  vault: text('vault', 100).optional(),
});
export type BuildGraphsArgs = z.infer<typeof buildGraphsInput>;

export interface BuildGraphsAnswer {
  vault: string;
  temporal?: number;
  temporalTotal?: number;
  /** Built temporal edges removed because their ends are no longer consecutive active documents. */
  temporalRemoved?: number;
  semantic?: number;
  semanticTotal?: number;
  semanticRemoved?: number;
  semanticThreshold?: number;
  /** Documents compared, documents skipped (and why), whether the pass finished in its budget. */
  semanticDocuments?: SemanticPass['documents'];
  ms: number;
}

export type GraphDeps = RetrieveDeps & { store: Store };

/** The temporal backbone: each active document → the next one by effective time, then id. */
async function buildTemporal(store: Store, vault: string, now: number) {
  const chain = await activeChain(store, vault);
  const want = chain.slice(1).map((id, i) => [chain[i] ?? id, id, 1] as const);
  return replaceBuiltEdges(store, vault, 'temporal', want, now);
}

/**
 * build_graphs over one vault. Only the requested graph types are built and answered.
 * `semantic` continues a semantic pass an earlier call's budget stopped (see buildSemantic).
 */
export async function buildGraphs(
  deps: GraphDeps,
  vault: string,
  args: Pick<BuildGraphsArgs, 'graph_types' | 'semantic_threshold'>,
  semantic: SemanticOptions = {},
): Promise<BuildGraphsAnswer> {
  const started = Date.now();
  const all = args.graph_types.includes('all');
  const answer: BuildGraphsAnswer = { vault, ms: 0 };
  if (all || args.graph_types.includes('temporal')) {
    const r = await buildTemporal(deps.store, vault, deps.now());
    answer.temporal = r.inserted;
    answer.temporalTotal = await countActiveEdges(deps.store, vault, 'temporal');
    answer.temporalRemoved = r.removed;
  }
  if (all || args.graph_types.includes('semantic')) {
    const r = await buildSemantic(deps, vault, args.semantic_threshold, semantic);
    answer.semantic = r.inserted;
    answer.semanticTotal = await countActiveEdges(deps.store, vault, 'semantic');
    answer.semanticRemoved = r.removed;
    answer.semanticThreshold = args.semantic_threshold;
    answer.semanticDocuments = r.documents;
  }
  answer.ms = Date.now() - started;
  return answer;
}
