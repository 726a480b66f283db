// find_similar (raw cosine neighbours of a reference document; internal results included when
// the reference is internal), timeline (documents before and after one by effective time) and
// session_log (sessions and handoffs, newest first, each with the documents changed since the
// one before). None of them is filtered by the internal-collection policy except find_similar.
import { INTERNAL_COLLECTION, type Store, type VaultDocumentMeta } from '../../store/index.js';
import { findDocument } from '../get.js';
import { candidatesOf } from './candidates.js';
import { hitOf, type VaultHit } from './hits.js';
import { type RetrieveDeps, VaultVectorsUnavailableError, withLeadSnippets } from './search.js';
import { type DegradedReason, nearestDocs, queryVector } from './vector.js';

/** Characters of the reference document embedded as its query. */
const REFERENCE_CHARS = 2000;

export interface SimilarAnswer {
  reference: { docid: string; path: string; collection: string };
  includeInternal: boolean;
  scoreBasis: 'vector-cosine';
  /**
   * Where the query vector came from: the reference's stored whole-document vector, or (while
   * the backlog has not embedded it) its title and first 2,000 characters embedded now.
   */
  referenceVector: 'stored' | 'embedded';
  results: VaultHit[];
  degraded?: boolean;
  degradedReason?: DegradedReason;
}

export async function findSimilar(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  file: string,
  limit: number,
  includeInternal: boolean,
): Promise<SimilarAnswer> {
  if (deps.embedder === null) throw new VaultVectorsUnavailableError('find_similar');
  const ref = await findDocument(deps.store, vault, file);
  const internal = includeInternal || ref.collection === INTERNAL_COLLECTION;
  const stored = await deps.index.documentVector(deps.embedder.model, ref.id);
  const vector =
    stored ??
    (await queryVector(deps.embedder, `${ref.title}\n${ref.content.slice(0, REFERENCE_CHARS)}`));
  const filter = { vault, now: deps.now(), includeInternal: internal };
  const near = await nearestDocs(
    deps.index,
    deps.embedder.model,
    vector,
    filter,
    limit,
    new Set([ref.id]),
  );
  const candidates = await withLeadSnippets(
    deps.index,
    await candidatesOf(deps.index, vault, [...near.hits]),
  );
  return {
    reference: { docid: `#${ref.docid}`, path: ref.path, collection: ref.collection },
    includeInternal: internal,
    scoreBasis: 'vector-cosine',
    referenceVector: stored === null ? 'embedded' : 'stored',
    results: candidates.map((c) =>
      hitOf(c, { ranking: c.searchScore, raw: c.searchScore, basis: 'vector-cosine' }, false),
    ),
    ...(near.degradedReason === null
      ? {}
      : { degraded: true, degradedReason: near.degradedReason }),
  };
}

export interface TimelineEntry {
  docid: string;
  path: string;
  title: string;
  collection: string;
  contentType: string;
  at: string;
}

const entryOf = (d: VaultDocumentMeta): TimelineEntry => ({
  docid: `#${d.docid}`,
  path: d.path,
  title: d.title,
  collection: d.collection,
  contentType: d.contentType,
  at: new Date(d.authoredAt ?? d.modifiedAt).toISOString(),
});

export async function timelineOf(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  docid: string,
  options: { before: number; after: number; sameCollection: boolean },
): Promise<{ reference: TimelineEntry; before: TimelineEntry[]; after: TimelineEntry[] }> {
  const ref = await findDocument(deps.store, vault, docid);
  const t = await deps.index.timeline(vault, ref.id, options);
  if (t === undefined) return { reference: entryOf(ref), before: [], after: [] };
  return {
    reference: entryOf(t.reference),
    before: t.before.map(entryOf),
    after: t.after.map(entryOf),
  };
}

export const SESSION_TYPES: readonly string[] = ['session', 'handoff'];
/** Changed documents listed per session at most. */
const CHANGES_SHOWN = 20;

export interface SessionEntry extends TimelineEntry {
  /** Documents modified after the previous session and up to this one (newest first). */
  changes: TimelineEntry[];
  changesTotal: number;
}

/** The latest `limit` sessions and handoffs (every collection, internal included). */
export async function sessionLog(
  deps: RetrieveDeps,
  vault: string,
  limit: number,
): Promise<{ sessions: SessionEntry[]; total: number }> {
  const docs = await deps.index.listDocuments(vault);
  const at = (d: VaultDocumentMeta): number => d.authoredAt ?? d.modifiedAt;
  const sessions = docs
    .filter((d) => SESSION_TYPES.includes(d.contentType))
    .sort((a, b) => at(b) - at(a));
  const others = docs.filter((d) => !SESSION_TYPES.includes(d.contentType));
  const out = sessions.slice(0, limit).map((s, i) => {
    const previous = sessions[i + 1];
    const changed = others
      .filter(
        (d) => d.modifiedAt <= at(s) && (previous === undefined || d.modifiedAt > at(previous)),
      )
      .sort((a, b) => b.modifiedAt - a.modifiedAt);
    return {
      ...entryOf(s),
      changes: changed.slice(0, CHANGES_SHOWN).map(entryOf),
      changesTotal: changed.length,
    };
  });
  return { sessions: out, total: sessions.length };
}
