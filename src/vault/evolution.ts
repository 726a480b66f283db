// A-MEM note evolution on the vault's write path: after a write commits, each written document
// gets its note, and its related documents (at most RELATED_MAX: the active documents whose
// notes share the most keywords with it, at least MIN_SHARED) absorb it, every change logged in
// vault_evolution with the trigger document. One write transaction per writer's batch, which
// reads the vault's note keywords once (an in-memory keyword → documents map for the batch).
import {
  logVaultEvolution,
  type Queryable,
  readVaultNotes,
  type Store,
  vaultNoteKeywords,
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
export const MIN_SHARED = 3;
/**
 * A keyword held by more notes than this is too common in the vault to relate documents (it
 * is skipped when counting shared keywords): it bounds one newcomer's work to 8 × this.
 */
export const COMMON_KEYWORD_NOTES = 200;

interface Planned {
  src: NoteSource;
  note: NoteFields;
}

/** Keyword stem → the documents whose notes hold it. */
type KeywordMap = Map<string, Set<number>>;

function addKeywords(
  map: KeywordMap,
  id: number,
  keywords: readonly string[],
  stemOf: (word: string) => string = keywordStem,
): void {
  for (const stem of keywords.map(stemOf)) {
    const ids = map.get(stem) ?? new Set<number>();
    ids.add(id);
    map.set(stem, ids);
  }
}

async function keywordMap(tx: Queryable, vault: string): Promise<KeywordMap> {
  const map: KeywordMap = new Map();
  // A vault's notes share a small vocabulary: stem each word once per map.
  const stems = new Map<string, string>();
  const stemOf = (word: string): string => {
    const known = stems.get(word);
    if (known !== undefined) return known;
    const stem = keywordStem(word);
    stems.set(word, stem);
    return stem;
  };
  for (const n of await vaultNoteKeywords(tx, vault))
    addKeywords(map, n.documentId, n.keywords, stemOf);
  return map;
}

/**
 * The documents sharing the most keyword stems with `note` (≥ MIN_SHARED; keywords held by more
 * than COMMON_KEYWORD_NOTES notes do not count), lower id on ties.
 */
function relatedTo(map: KeywordMap, p: Planned): number[] {
  const shared = new Map<number, number>();
  for (const stem of new Set(p.note.keywords.map(keywordStem))) {
    const ids = map.get(stem) ?? new Set<number>();
    if (ids.size > COMMON_KEYWORD_NOTES) continue;
    for (const id of ids) if (id !== p.src.id) shared.set(id, (shared.get(id) ?? 0) + 1);
  }
  return [...shared]
    .filter(([, n]) => n >= MIN_SHARED)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, RELATED_MAX)
    .map(([id]) => id);
}

async function evolveRelated(
  tx: Queryable,
  p: Planned,
  related: number[],
  at: number,
): Promise<void> {
  const notes = await readVaultNotes(tx, related);
  for (const id of related) {
    const n = notes.get(id);
    if (n === undefined) continue;
    const after = absorb(n, p.note, p.src.title);
    if (sameNote(n, after)) continue;
    await writeVaultNote(tx, { ...after, documentId: id, updatedAt: at });
    await logVaultEvolution(tx, { documentId: id, triggerId: p.src.id, before: n, after, at });
  }
}

/** The newcomer's own note; a rewrite that changes it is logged with the document as trigger. */
async function writeOwn(tx: Queryable, p: Planned, at: number): Promise<NoteFields> {
  const previous = (await readVaultNotes(tx, [p.src.id])).get(p.src.id);
  const after = rewritten(previous, p.note);
  if (previous !== undefined && sameNote(previous, after)) return after;
  await writeVaultNote(tx, { ...after, documentId: p.src.id, updatedAt: at });
  if (previous !== undefined)
    await logVaultEvolution(tx, {
      documentId: p.src.id,
      triggerId: p.src.id,
      before: previous,
      after,
      at,
    });
  return after;
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
  for (const src of docs) planned.push({ src, note: await noteOf(store, src) });
  await store.write(async (tx) => {
    const map = await keywordMap(tx, vault);
    for (const p of planned) {
      const own = await writeOwn(tx, p, now);
      await evolveRelated(tx, p, relatedTo(map, p), now);
      // Later newcomers of the batch see this one's note.
      addKeywords(map, p.src.id, own.keywords);
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
