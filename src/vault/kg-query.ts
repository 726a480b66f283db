// kg_query: an entity's triples in its vault's graph, as of a date, with evidence. Entity
// resolution: the graph's trigram postings (full text over names) first, the slug second.
// Not filtered by the internal-collection policy: system memory is its substrate (spec).
import { z } from 'zod';

import { entityNameMatches, queryTrigrams, slugOf } from '../graph/index.js';
import {
  entityNamesBySlug,
  factEvidence,
  type FactEvidenceRow,
  factTriples,
  type Queryable,
  type Store,
} from '../store/index.js';
import { vaultGraphName } from './facts.js';

const DAY_MS = 86_400_000;
/** Entities one query resolves to at most, triples answered at most, sources per triple. */
export const KG_MAX_ENTITIES = 10;
export const KG_MAX_TRIPLES = 200;
export const KG_MAX_SOURCES = 5;

/** True when `v` (YYYY-MM-DD) names a day of the calendar (no 2024-13-01, no 2023-02-30). */
function realDate(v: string): boolean {
  const ms = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(v);
}

export const kgQueryInput = z.object({
  entity: z
    .string({ error: () => 'entity must be a string' })
    .min(1, { error: 'entity must be a non-empty string', abort: true })
    .max(500, { error: 'entity is longer than 500 characters', abort: true })
    .refine((v) => v.trim() !== '', 'entity must not be blank'),
  as_of: z
    .string({ error: () => 'as_of must be a string' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'as_of must be a date YYYY-MM-DD', abort: true })
    .refine((v) => realDate(v), {
      error: 'as_of must be a real calendar date',
    })
    .optional(),
  direction: z
    .enum(['outgoing', 'incoming', 'both'], {
      error: () => 'direction must be one of outgoing, incoming, both',
    })
    .default('both'),
  vault: z.string().min(1).max(100).optional(),
});

export interface KgSource {
  docId: string | null;
  collection: string | null;
  path: string | null;
  fact: string;
  at: number;
  /** True when the evidence names no vault document (rendered "unattributed"). */
  unattributed: boolean;
}

export interface KgFact {
  subject: string;
  predicate: string;
  object: string;
  valid_from: string | null;
  valid_to: string | null;
  confidence: number;
  current: boolean;
  evidenceCount: number;
  sources: KgSource[];
}

export interface KgAnswer {
  entity: string;
  resolvedBy: 'full-text' | 'slug' | null;
  entities: string[];
  as_of: string | null;
  direction: 'outgoing' | 'incoming' | 'both';
  facts: KgFact[];
  truncated: boolean;
  message: string;
}

const day = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString().slice(0, 10);

/** The graph's entities the query names: an exact name alone, else names containing it. */
async function resolve(
  store: Store,
  tx: Queryable,
  graphId: number,
  entity: string,
  ids: readonly number[] | null,
): Promise<Pick<KgAnswer, 'resolvedBy' | 'entities'>> {
  const rows =
    ids !== null && ids.length === 0
      ? []
      : await store.graphIndex.entities(tx, graphId, ids ?? undefined);
  const named = rows.filter((e) => entityNameMatches(e, entity)).map((e) => e.name);
  const exact = named.filter((n) => n.toLowerCase() === entity.trim().toLowerCase());
  if (named.length > 0) {
    return {
      resolvedBy: 'full-text',
      entities: (exact.length > 0 ? exact : named).slice(0, KG_MAX_ENTITIES),
    };
  }
  const bySlug = await entityNamesBySlug(tx, graphId, slugOf(entity));
  return bySlug.length > 0
    ? { resolvedBy: 'slug', entities: bySlug.slice(0, KG_MAX_ENTITIES) }
    : { resolvedBy: null, entities: [] };
}

const toSource = (e: FactEvidenceRow): KgSource => ({
  docId: e.docid === null ? null : `#${e.docid}`,
  collection: e.collection,
  path: e.path,
  fact: e.fact,
  at: e.observedAt,
  unattributed: e.docid === null,
});

/** Runs kg_query on the vault's graph. */
export async function kgQuery(
  store: Store,
  vault: string,
  args: z.infer<typeof kgQueryInput>,
): Promise<KgAnswer> {
  const asOf = args.as_of === undefined ? null : Date.parse(`${args.as_of}T00:00:00Z`) + DAY_MS - 1;
  const base = { entity: args.entity, as_of: args.as_of ?? null, direction: args.direction };
  const graphId = await store.graphIndex.findGraph(store, vaultGraphName(vault));
  if (graphId === undefined) {
    const message = `no facts in vault ${vault}: nothing has been extracted into its graph yet`;
    return { ...base, resolvedBy: null, entities: [], facts: [], truncated: false, message };
  }
  // The trigram postings are read outside the snapshot, as search_nodes reads them.
  const trigrams = queryTrigrams(args.entity);
  const ids = trigrams === null ? null : await store.graphIndex.candidates(trigrams, graphId);
  return store.read(async (tx) => {
    const found = await resolve(store, tx, graphId, args.entity, ids);
    if (found.entities.length === 0) {
      const message = `no entity "${args.entity}" in vault ${vault}'s graph (searched names by full text, then slug "${slugOf(args.entity)}")`;
      return { ...base, ...found, facts: [], truncated: false, message };
    }
    const opts = { direction: args.direction, asOf, limit: KG_MAX_TRIPLES + 1 };
    const rows = await factTriples(tx, graphId, found.entities, opts);
    const truncated = rows.length > KG_MAX_TRIPLES;
    const kept = rows.slice(0, KG_MAX_TRIPLES);
    const evidence = await factEvidence(
      tx,
      kept.map((t) => t.id),
      KG_MAX_SOURCES,
    );
    const facts = kept.map((t) => ({
      subject: t.subject,
      predicate: t.predicate,
      object: t.object,
      valid_from: day(t.validFrom),
      valid_to: day(t.validTo),
      confidence: t.confidence,
      current: t.status === 'current',
      evidenceCount: evidence.counts.get(t.id) ?? 0,
      sources: evidence.rows.filter((e) => e.tripleId === t.id).map(toSource),
    }));
    const when = args.as_of === undefined ? 'current' : `valid on ${args.as_of}`;
    const message =
      facts.length === 0
        ? `entity found (${found.entities.join(', ')}) but no ${when} ${args.direction} facts`
        : `${facts.length} ${when} fact(s) for ${found.entities.join(', ')}${truncated ? ` (truncated at ${KG_MAX_TRIPLES})` : ''}`;
    return { ...base, ...found, facts, truncated, message };
  });
}
