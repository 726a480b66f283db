// A-MEM note evolution on the vault's write path: after a write commits, each written document
// gets its note, and its related documents (at most RELATED_MAX: the vault postings' best
// matches for its keywords whose notes share at least MIN_SHARED keywords) absorb it, every
// change logged in vault_evolution with the trigger document. One write transaction per batch.
import {
  logVaultEvolution,
  readVaultNotes,
  type Queryable,
  type Store,
  writeVaultNote,
} from '../store/index.js';
import type { PreparedDocument } from './ingest.js';
import {
  absorb,
  keywordStem,
  type NoteFields,
  noteOf,
  type NoteSource,
  rewritten,
  sameNote,
} from './notes.js';

/** Related documents one newcomer evolves at most; keywords a related note must share. */
export const RELATED_MAX = 5;
export const MIN_SHARED = 2;
/** Fragments asked of the postings per newcomer (candidates before the shared-keyword check). */
const CANDIDATE_FRAGMENTS = 30;

interface Planned {
  src: NoteSource;
  note: NoteFields;
  candidates: number[];
}

/** Documents whose fragments best match the newcomer's keywords (any collection), best first. */
async function candidatesOf(
  store: Store,
  vault: string,
  p: Omit<Planned, 'candidates'>,
  now: number,
) {
  if (p.note.keywords.length === 0) return [];
  const filter = { vault, now, includeInternal: true };
  const hits = await store.vaultIndex.fullText(
    p.note.keywords.join(' '),
    filter,
    CANDIDATE_FRAGMENTS,
  );
  return [...new Set(hits.map((h) => h.documentId))].filter((id) => id !== p.src.id);
}

async function evolveRelated(tx: Queryable, p: Planned, at: number): Promise<void> {
  const notes = await readVaultNotes(tx, p.candidates);
  const mine = new Set(p.note.keywords.map(keywordStem));
  const related = p.candidates
    .flatMap((id) => {
      const n = notes.get(id);
      const shared =
        n === undefined ? 0 : n.keywords.filter((k) => mine.has(keywordStem(k))).length;
      return n !== undefined && shared >= MIN_SHARED ? [{ n, shared }] : [];
    })
    .sort((a, b) => b.shared - a.shared)
    .slice(0, RELATED_MAX);
  for (const { n } of related) {
    const after = absorb(n, p.note, p.src.title);
    if (sameNote(n, after)) continue;
    await writeVaultNote(tx, { ...after, documentId: n.documentId, updatedAt: at });
    await logVaultEvolution(tx, {
      documentId: n.documentId,
      triggerId: p.src.id,
      before: n,
      after,
      at,
    });
  }
}

/** The newcomer's own note; a rewrite that changes it is logged with the document as trigger. */
async function writeOwn(tx: Queryable, p: Planned, at: number): Promise<void> {
  const previous = (await readVaultNotes(tx, [p.src.id])).get(p.src.id);
  const after = rewritten(previous, p.note);
  if (previous !== undefined && sameNote(previous, after)) return;
  await writeVaultNote(tx, { ...after, documentId: p.src.id, updatedAt: at });
  if (previous !== undefined)
    await logVaultEvolution(tx, {
      documentId: p.src.id,
      triggerId: p.src.id,
      before: previous,
      after,
      at,
    });
}

/**
 * Makes the notes of documents just written (committed) and evolves their related documents'.
 * Call after the write transaction; `docs` is one writer's batch (sync: ≤ 100).
 */
export async function refreshNotes(
  store: Store,
  vault: string,
  docs: readonly NoteSource[],
  now: number,
): Promise<void> {
  if (docs.length === 0) return;
  const planned: Planned[] = [];
  for (const src of docs) {
    const note = await noteOf(store, src);
    planned.push({ src, note, candidates: await candidatesOf(store, vault, { src, note }, now) });
  }
  await store.write(async (tx) => {
    for (const p of planned) {
      await writeOwn(tx, p, now);
      await evolveRelated(tx, p, now);
    }
  });
}

/** What the notes read of a prepared document written as row `id`. */
export const noteSourceOf = (id: number, doc: PreparedDocument): NoteSource => ({
  id,
  title: doc.input.title,
  contentType: doc.input.contentType,
  content: doc.input.content,
  frontmatter: doc.input.frontmatter,
});
