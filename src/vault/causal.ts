// Cross-document causal links derived from extracted facts, in the write transaction of the
// facts. A `caused_by` fact of document T (effect E, cause C) and a fact of another active
// document S that states C give the edge S → T (origin 'extracted') with fact-pair witnesses.
// Incoming edges of a target are a function of its facts and the corpus: each affected target
// is re-derived whole and the result diffed against what is stored (nothing rewritten in vain).
import type { ExtractedFact } from '../graph/extract/index.js';
import {
  activeDocumentContents,
  causalEdgeEnds,
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
  /** Facts of documents read in this derivation, by document id. */
  facts: Map<number, ExtractedFact[]>;
}

function factsOf(d: Derivation, id: number, content: string): ExtractedFact[] {
  let f = d.facts.get(id);
  if (f === undefined) {
    f = documentFacts(content);
    d.facts.set(id, f);
  }
  return f;
}

/** The witnesses, by source document, of the causes `targetFacts` name. */
async function witnessesInto(
  tx: Queryable,
  d: Derivation,
  targetId: number,
  targetFacts: readonly ExtractedFact[],
): Promise<Map<number, CausalWitnessInput[]>> {
  const effects = targetFacts.filter((f) => f.predicate === 'caused_by');
  const out = new Map<number, CausalWitnessInput[]>();
  for (const slug of new Set(effects.map((f) => f.objectSlug))) {
    const sources = await causeStatingDocuments(tx, {
      ...{ graphId: d.graphId, vault: d.vault, slugs: [slug], excludeId: targetId },
      limit: CAUSAL_SOURCES_PER_CAUSE,
    });
    for (const s of sources) {
      const list = out.get(s.id) ?? [];
      for (const cause of factsOf(d, s.id, s.content)) {
        const kind = causalMatch(cause, slug);
        if (kind === undefined) continue;
        for (const effect of effects.filter((f) => f.objectSlug === slug)) {
          list.push({
            ...{ sourceFact: cause.ordinal, targetFact: effect.ordinal },
            ...{ sourceText: cause.fact, targetText: effect.fact },
            ...{ reasoning: reasoningOf(kind, cause, effect), confidence: MATCH_CONFIDENCE[kind] },
          });
        }
      }
      if (list.length > 0) out.set(s.id, list);
    }
  }
  return out;
}

const strongestFirst = (a: CausalWitnessInput, b: CausalWitnessInput): number =>
  b.confidence - a.confidence || a.sourceFact - b.sourceFact || a.targetFact - b.targetFact;

/**
 * Re-derives the extracted causal edges into one target: edges no longer supported go (with
 * their witnesses), supported ones are written idempotently with their strongest witnesses. A
 * declared edge between the same pair stands as declared: extraction adds nothing to it.
 */
async function deriveInto(
  tx: Queryable,
  d: Derivation,
  targetId: number,
  targetFacts: readonly ExtractedFact[],
): Promise<void> {
  const wanted = await witnessesInto(tx, d, targetId, targetFacts);
  const stored = await causalEdgeEnds(tx, { ids: [targetId], end: 'target' });
  const gone = stored.filter((e) => e.origin === 'extracted' && !wanted.has(e.toId));
  await deleteCausalEdges(
    tx,
    gone.map((e) => e.edgeId),
  );
  const declared = new Set(stored.filter((e) => e.origin !== 'extracted').map((e) => e.toId));
  for (const [sourceId, all] of wanted) {
    if (declared.has(sourceId)) continue;
    const kept = [...all].sort(strongestFirst).slice(0, CAUSAL_WITNESSES_PER_EDGE);
    const top = kept[0];
    if (top === undefined) continue;
    const edge = await upsertVaultEdge(
      tx,
      {
        ...{ vault: d.vault, sourceId, targetId, type: 'causal', origin: 'extracted' },
        ...{ weight: top.confidence, reasoning: top.reasoning, confidence: top.confidence },
      },
      d.now,
    );
    await replaceCausalWitnesses(tx, edge.id, kept, d.now);
  }
}

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
  const d: Derivation = { vault: doc.vault, graphId: doc.graphId, now: doc.now, facts: new Map() };
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
  const d: Derivation = {
    vault: opts.vault,
    graphId: opts.graphId,
    now: opts.now,
    facts: new Map(),
  };
  const targets = await activeDocumentContents(tx, [...new Set(out.map((e) => e.toId))]);
  for (const t of targets) await deriveInto(tx, d, t.id, factsOf(d, t.id, t.content));
}
