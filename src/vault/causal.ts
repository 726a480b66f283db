// Cross-document causal links derived from extracted facts, in the write transaction of the
// facts. A `caused_by` fact of document T (effect E, cause C) and a fact of another active
// document S that states C give the edge S → T (origin 'extracted') with fact-pair witnesses.
// Incoming edges of a target are a function of its facts and the corpus: each affected target
// is re-derived whole and the result diffed against what is stored (nothing rewritten in vain).
import type { ExtractedFact } from '../graph/extract/index.js';
import {
  activeDocumentContents,
  type CausalDocumentRow,
  causalEdgeEnds,
  causalWitnessCounts,
  type CausalWitnessInput,
  causeNamingDocuments,
  causeStatingDocuments,
  deleteCausalEdges,
  type Queryable,
  replaceCausalWitnesses,
  upsertVaultEdge,
} from '../store/index.js';
import { documentFacts } from './fact-text.js';

/** Documents stating one cause that link to a target: the newest this many. */
export const CAUSAL_SOURCES_PER_CAUSE = 8;
/** Other documents a written document re-derives as targets at most (the newest). */
export const CAUSAL_TARGETS_PER_WRITE = 32;
/** Fact-pair witnesses stored per edge at most (the strongest). */
export const CAUSAL_WITNESSES_PER_EDGE = 32;

/** How a source fact states the cause: its effect (a chain), its object, or its subject. */
export type CausalMatch = 'effect' | 'object' | 'subject';
export const MATCH_CONFIDENCE: Readonly<Record<CausalMatch, number>> = {
  effect: 0.9,
  object: 0.7,
  subject: 0.6,
};

/** How fact `f` states the entity of `slug`, or undefined when it does not. */
export function causalMatch(f: ExtractedFact, slug: string): CausalMatch | undefined {
  if (f.predicate === 'caused_by') return f.subjectSlug === slug ? 'effect' : undefined;
  if (f.objectSlug === slug) return 'object';
  if (f.subjectSlug === slug) return 'subject';
  return undefined;
}

const STATES: Readonly<Record<CausalMatch, string>> = {
  effect: 'explains why',
  object: 'states',
  subject: 'says what',
};

function reasoningOf(kind: CausalMatch, cause: ExtractedFact, effect: ExtractedFact): string {
  const how =
    kind === 'effect'
      ? `${STATES[kind]} "${cause.subject}" happened`
      : `${STATES[kind]} "${cause.subject}" ${cause.predicate.replace(/_/g, ' ')} "${cause.object}"`;
  return `source ${how}; target says "${effect.subject}" was caused by "${effect.object}"`;
}

interface Derivation {
  vault: string;
  graphId: number;
  now: number;
  /** The written document (none when deactivation triggered the derivation). */
  changed: number | undefined;
  /** Facts of documents read in this derivation, by document id. */
  facts: Map<number, ExtractedFact[]>;
  /** Documents stating each cause slug, newest first (one more than the cap). */
  stating: Map<string, CausalDocumentRow[]>;
}

function factsOf(d: Derivation, id: number, content: string): ExtractedFact[] {
  let f = d.facts.get(id);
  if (f === undefined) {
    f = documentFacts(content);
    d.facts.set(id, f);
  }
  return f;
}

/** The newest CAUSAL_SOURCES_PER_CAUSE documents but the target stating `slug`. */
async function statingDocuments(
  tx: Queryable,
  d: Derivation,
  slug: string,
  targetId: number,
): Promise<CausalDocumentRow[]> {
  let rows = d.stating.get(slug);
  if (rows === undefined) {
    rows = await causeStatingDocuments(tx, {
      ...{ graphId: d.graphId, vault: d.vault, slugs: [slug], excludeId: 0 },
      limit: CAUSAL_SOURCES_PER_CAUSE + 1,
    });
    d.stating.set(slug, rows);
  }
  return rows.filter((r) => r.id !== targetId).slice(0, CAUSAL_SOURCES_PER_CAUSE);
}

/** The source documents of a target's causes, each with the cause slugs it states. */
async function sourcesInto(
  tx: Queryable,
  d: Derivation,
  targetId: number,
  effects: readonly ExtractedFact[],
): Promise<Map<number, { content: string; slugs: string[] }>> {
  const out = new Map<number, { content: string; slugs: string[] }>();
  for (const slug of new Set(effects.map((f) => f.objectSlug))) {
    for (const s of await statingDocuments(tx, d, slug, targetId)) {
      const known = out.get(s.id);
      if (known === undefined) out.set(s.id, { content: s.content, slugs: [slug] });
      else known.slugs.push(slug);
    }
  }
  return out;
}

/** The fact-pair witnesses of one source for the target's effects of `slugs`, strongest first. */
function witnessesFrom(
  causes: readonly ExtractedFact[],
  effects: readonly ExtractedFact[],
  slugs: readonly string[],
): CausalWitnessInput[] {
  const out: CausalWitnessInput[] = [];
  for (const slug of slugs) {
    for (const cause of causes) {
      const kind = causalMatch(cause, slug);
      if (kind === undefined) continue;
      for (const effect of effects.filter((f) => f.objectSlug === slug)) {
        out.push({
          ...{ sourceFact: cause.ordinal, targetFact: effect.ordinal },
          ...{ sourceText: cause.fact, targetText: effect.fact },
          ...{ reasoning: reasoningOf(kind, cause, effect), confidence: MATCH_CONFIDENCE[kind] },
        });
      }
    }
  }
  return out.sort(strongestFirst).slice(0, CAUSAL_WITNESSES_PER_EDGE);
}

const strongestFirst = (a: CausalWitnessInput, b: CausalWitnessInput): number =>
  b.confidence - a.confidence || a.sourceFact - b.sourceFact || a.targetFact - b.targetFact;

/** Writes one extracted edge and makes its witnesses exactly `kept`. */
async function writeEdge(
  tx: Queryable,
  d: Derivation,
  ends: { sourceId: number; targetId: number },
  kept: readonly CausalWitnessInput[],
): Promise<void> {
  const top = kept[0];
  if (top === undefined) return;
  const edge = await upsertVaultEdge(
    tx,
    {
      ...{ vault: d.vault, ...ends, type: 'causal', origin: 'extracted' },
      ...{ weight: top.confidence, reasoning: top.reasoning, confidence: top.confidence },
    },
    d.now,
  );
  await replaceCausalWitnesses(tx, edge.id, kept, d.now);
}

/**
 * Re-derives the extracted causal edges into one target: edges whose source is no longer among
 * its causes' newest stating documents go (with their witnesses); the others are written with
 * their strongest witnesses, except an edge between two unchanged documents whose stored
 * witness count is already right (its pairs depend on those two documents and on which of the
 * target's causes the source is still counted for). A declared edge between the same pair
 * stands as declared: extraction adds nothing to it.
 */
async function deriveInto(
  tx: Queryable,
  d: Derivation,
  targetId: number,
  targetFacts: readonly ExtractedFact[],
): Promise<void> {
  const effects = targetFacts.filter((f) => f.predicate === 'caused_by');
  const sources = await sourcesInto(tx, d, targetId, effects);
  const stored = await causalEdgeEnds(tx, { ids: [targetId], end: 'target' });
  const extracted = new Map(
    stored.filter((e) => e.origin === 'extracted').map((e) => [e.toId, e.edgeId]),
  );
  const declared = new Set(stored.filter((e) => e.origin !== 'extracted').map((e) => e.toId));
  const gone = [...extracted].filter(([sourceId]) => !sources.has(sourceId));
  await deleteCausalEdges(
    tx,
    gone.map(([, edgeId]) => edgeId),
  );
  const counts = await causalWitnessCounts(tx, [...extracted.values()]);
  const unchanged = (id: number): boolean => id !== d.changed && targetId !== d.changed;
  for (const [sourceId, s] of sources) {
    if (declared.has(sourceId)) continue;
    const kept = witnessesFrom(factsOf(d, sourceId, s.content), effects, s.slugs);
    const edgeId = extracted.get(sourceId);
    const same = edgeId !== undefined && counts.get(edgeId) === kept.length;
    if (same && unchanged(sourceId)) continue;
    await writeEdge(tx, d, { sourceId, targetId }, kept);
  }
}

const derivation = (
  vault: string,
  graphId: number,
  now: number,
  changed: number | undefined,
): Derivation => ({ vault, graphId, now, changed, facts: new Map(), stating: new Map() });

/**
 * Derives the causal links a written document takes part in, in the caller's transaction
 * (after its facts replaced its evidence): its incoming edges, and the incoming edges of the
 * documents it may cause (those naming a cause it states, the newest CAUSAL_TARGETS_PER_WRITE,
 * plus those it linked to before).
 */
export async function deriveCausalLinks(
  tx: Queryable,
  doc: { vault: string; graphId: number; id: number; facts: readonly ExtractedFact[]; now: number },
): Promise<void> {
  const d = derivation(doc.vault, doc.graphId, doc.now, doc.id);
  d.facts.set(doc.id, [...doc.facts]);
  await deriveInto(tx, d, doc.id, doc.facts);
  const stated = doc.facts.flatMap((f) =>
    f.predicate === 'caused_by' ? [f.subjectSlug] : [f.subjectSlug, f.objectSlug],
  );
  const naming = await causeNamingDocuments(tx, {
    ...{ graphId: d.graphId, vault: d.vault, slugs: [...new Set(stated)], excludeId: doc.id },
    limit: CAUSAL_TARGETS_PER_WRITE,
  });
  const before = await causalEdgeEnds(tx, { ids: [doc.id], end: 'source' });
  const known = new Set(naming.map((t) => t.id));
  const earlier = await activeDocumentContents(
    tx,
    before.map((e) => e.toId).filter((id) => !known.has(id)),
  );
  for (const t of [...naming, ...earlier])
    await deriveInto(tx, d, t.id, factsOf(d, t.id, t.content));
}

/**
 * Removes the extracted causal edges at either end of deactivated documents (after their
 * evidence went), then re-derives the active documents they pointed at, so a source beyond
 * the per-cause cap can take the freed place.
 */
export async function dropCausalLinks(
  tx: Queryable,
  opts: { vault: string; graphId: number; ids: readonly number[]; now: number },
): Promise<void> {
  if (opts.ids.length === 0) return;
  const out = await causalEdgeEnds(tx, { ids: opts.ids, end: 'source' });
  const into = await causalEdgeEnds(tx, { ids: opts.ids, end: 'target' });
  const extracted = [...out, ...into].filter((e) => e.origin === 'extracted');
  await deleteCausalEdges(tx, [...new Set(extracted.map((e) => e.edgeId))]);
  const d = derivation(opts.vault, opts.graphId, opts.now, undefined);
  const targets = await activeDocumentContents(tx, [...new Set(out.map((e) => e.toId))]);
  for (const t of targets) await deriveInto(tx, d, t.id, factsOf(d, t.id, t.content));
}
