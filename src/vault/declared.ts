// Declared causal edges: frontmatter `caused_by:` / `causes:` (a docid or a collection-relative
// path, or a list of them) become causal edges of origin 'declared'. Reconciled per vault in the
// writer's transaction, so a reference whose target appears later resolves then, and one that
// does not resolve is reported, never dropped. Touches origin 'declared' only.
import {
  activeDocumentsByKey,
  DECLARED_CAUSAL_KEYS,
  declaredCausalEdges,
  type DeclaringDocument,
  declaringDocuments,
  type DocumentKey,
  type Queryable,
  removeVaultEdges,
  upsertVaultEdge,
} from '../store/index.js';

type DeclaredKey = (typeof DECLARED_CAUSAL_KEYS)[number];

/** A reference that names no active document (yet), or is not a reference at all. */
export interface UnresolvedReference {
  path: string;
  key: DeclaredKey;
  ref: string;
  reason: string;
}

export interface DeclaredReport {
  /** Declared causal edges the vault has after this reconciliation. */
  edges: number;
  added: number;
  removed: number;
  /** References kept pending: re-resolved on every later sync or save. */
  unresolved: number;
  /** The first few of them (UNRESOLVED_SHOWN). */
  unresolvedFirst: UnresolvedReference[];
}

export const UNRESOLVED_SHOWN = 5;
const DOCID = /^#?([0-9a-f]{6,64})$/i;

interface Reference {
  doc: DeclaringDocument;
  key: DeclaredKey;
  ref: string;
  docid?: string;
  path?: string;
}

/** The references one document declares; values that are not strings are unresolved. */
function referencesOf(doc: DeclaringDocument, bad: UnresolvedReference[]): Reference[] {
  return DECLARED_CAUSAL_KEYS.flatMap((key) => {
    const value = doc.frontmatter[key];
    if (value === undefined) return [];
    const items: unknown[] = Array.isArray(value) ? value : [value];
    return items.flatMap((item): Reference[] => {
      const ref = typeof item === 'string' ? item.trim() : '';
      if (ref === '') {
        const reason = `not a docid or path (${item === null ? 'empty: quote a docid, "#a1b2c3", or YAML reads it as a comment' : typeof item})`;
        bad.push({ path: doc.path, key, ref: String(item), reason });
        return [];
      }
      const m = DOCID.exec(ref);
      if (m?.[1] !== undefined && (ref.startsWith('#') || !ref.includes('.')))
        return [{ doc, key, ref, docid: m[1].toLowerCase() }];
      return [{ doc, key, ref, path: ref.replace(/^\.?\//, '') }];
    });
  });
}

/** A path reference as "collection/path": the collection and the rest, when it has a slash. */
function qualified(path: string): { collection: string; path: string } | undefined {
  const slash = path.indexOf('/');
  return slash < 0 ? undefined : { collection: path.slice(0, slash), path: path.slice(slash + 1) };
}

/**
 * The document a reference names, as the document tools resolve one: a docid; else a
 * collection-relative path (the declarer's collection first); else "collection/path".
 */
function resolve(r: Reference, found: readonly DocumentKey[]): DocumentKey | string {
  if (r.docid !== undefined)
    return found.find((d) => d.docid === r.docid) ?? 'no active document has this docid';
  const at = found.filter((d) => d.path === r.path);
  const same = at.filter((d) => d.collectionId === r.doc.collectionId);
  if (same.length === 1 && same[0] !== undefined) return same[0];
  if (at.length === 1 && at[0] !== undefined) return at[0];
  if (at.length > 1) return `ambiguous: ${at.length} collections have this path`;
  const q = qualified(r.path ?? '');
  const named = found.find((d) => d.collection === q?.collection && d.path === q.path);
  return named ?? 'no active document at this path';
}

const edgeKey = (s: number, t: number): string => `${s}>${t}`;

/** Declared edges wanted now: source → target, and the reasoning naming the declarer. */
async function wantedEdges(tx: Queryable, vault: string, bad: UnresolvedReference[]) {
  const refs = (await declaringDocuments(tx, vault)).flatMap((d) => referencesOf(d, bad));
  const found = await activeDocumentsByKey(tx, vault, {
    docids: refs.flatMap((r) => (r.docid === undefined ? [] : [r.docid])),
    paths: refs.flatMap((r) => {
      if (r.path === undefined) return [];
      const q = qualified(r.path);
      return q === undefined ? [r.path] : [r.path, q.path];
    }),
  });
  const wanted = new Map<string, { sourceId: number; targetId: number; reasoning: string }>();
  for (const r of refs) {
    const target = resolve(r, found);
    if (typeof target === 'string') {
      bad.push({ path: r.doc.path, key: r.key, ref: r.ref, reason: target });
      continue;
    }
    if (target.id === r.doc.id) {
      bad.push({ path: r.doc.path, key: r.key, ref: r.ref, reason: 'names the document itself' });
      continue;
    }
    const [sourceId, targetId] = r.key === 'causes' ? [r.doc.id, target.id] : [target.id, r.doc.id];
    const reasoning = `declared in ${r.doc.path} frontmatter (${r.key})`;
    if (!wanted.has(edgeKey(sourceId, targetId)))
      wanted.set(edgeKey(sourceId, targetId), { sourceId, targetId, reasoning });
  }
  return wanted;
}

/**
 * Brings the vault's declared causal edges in line with its active documents' frontmatter, in
 * the caller's write transaction: edges no declaration supports any more are removed (with
 * removeVaultEdges around their documents, then the still-declared ones there re-written), the
 * declared ones are upserted (weight 1, confidence 1). Unresolvable references are reported.
 */
export async function reconcileDeclaredEdges(
  tx: Queryable,
  vault: string,
  now: number,
): Promise<DeclaredReport> {
  const bad: UnresolvedReference[] = [];
  const wanted = await wantedEdges(tx, vault, bad);
  const existing = await declaredCausalEdges(tx, vault);
  const had = new Map(existing.map((e) => [edgeKey(e.sourceId, e.targetId), e.reasoning]));
  const stale = existing.filter((e) => !wanted.has(edgeKey(e.sourceId, e.targetId)));
  const around = new Set(stale.flatMap((e) => [e.sourceId, e.targetId]));
  const documentIds = [...around];
  await removeVaultEdges(tx, { documentIds, type: 'causal', origin: 'declared', end: 'either' });
  let added = 0;
  for (const [key, e] of wanted) {
    // Unchanged declared edges away from the removal need no write.
    const kept = !around.has(e.sourceId) && !around.has(e.targetId);
    if (kept && had.get(key) === e.reasoning) continue;
    const r = await upsertVaultEdge(
      tx,
      { vault, ...e, type: 'causal', weight: 1, origin: 'declared', confidence: 1 },
      now,
    );
    if (r.inserted && !had.has(key)) added += 1;
  }
  return {
    edges: wanted.size,
    added,
    removed: stale.length,
    unresolved: bad.length,
    unresolvedFirst: bad.slice(0, UNRESOLVED_SHOWN),
  };
}
