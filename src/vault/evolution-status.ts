// memory_evolution_status: how a document's A-MEM note (keywords, tags, context) changed as
// related documents arrived, newest first, each entry with its time, trigger document and diff.
// Honest empties: no note yet (written before notes existed) vs a note that never evolved; an
// unknown or inactive docid is the vault's not-found refusal.
import { z } from 'zod';

import {
  type Store,
  vaultEvolutionOf,
  type VaultEvolutionRow,
  readVaultNotes,
} from '../store/index.js';
import { findDocument } from './get.js';
import { int, text } from './tool-schemas.js';

export const evolutionStatusInput = z.object({
  docid: text('docid', 4096),
  limit: int('limit', 1, 100).default(10),
  vault: text('vault', 100).optional(),
});
export type EvolutionStatusArgs = z.infer<typeof evolutionStatusInput>;

export interface Diff {
  added: string[];
  removed: string[];
}

export interface EvolutionEntry {
  at: string;
  /** The document whose arrival (or, when `rewrite`, whose own rewrite) changed the note. */
  trigger: { docid: string; path: string; title: string; collection: string } | null;
  rewrite: boolean;
  keywords: Diff;
  tags: Diff;
  /** Before → after, or null when the context did not change. */
  context: { before: string; after: string } | null;
}

export interface EvolutionStatus {
  document: { docid: string; path: string; title: string; collection: string };
  note: { keywords: string[]; tags: string[]; context: string; updatedAt: string } | null;
  entries: EvolutionEntry[];
  total: number;
  truncated: boolean;
  message: string;
}

const diff = (before: readonly string[], after: readonly string[]): Diff => ({
  added: after.filter((x) => !before.includes(x)),
  removed: before.filter((x) => !after.includes(x)),
});

const iso = (ms: number): string => new Date(ms).toISOString();

function entryOf(r: VaultEvolutionRow, documentId: number): EvolutionEntry {
  const t = r.trigger;
  return {
    at: iso(r.createdAt),
    trigger:
      t === null
        ? null
        : { docid: `#${t.docid}`, path: t.path, title: t.title, collection: t.collection },
    rewrite: t?.id === documentId,
    keywords: diff(r.keywordsBefore, r.keywordsAfter),
    tags: diff(r.tagsBefore, r.tagsAfter),
    context:
      r.contextBefore === r.contextAfter
        ? null
        : { before: r.contextBefore, after: r.contextAfter },
  };
}

/** @throws VaultDocumentNotFoundError for an unknown or inactive docid. */
export async function evolutionStatus(
  store: Store,
  vault: string,
  args: Pick<EvolutionStatusArgs, 'docid' | 'limit'>,
): Promise<EvolutionStatus> {
  const doc = await findDocument(store, vault, args.docid);
  const note = (await readVaultNotes(store, [doc.id])).get(doc.id);
  const { entries, total } = await vaultEvolutionOf(store, doc.id, args.limit);
  const document = {
    docid: `#${doc.docid}`,
    path: doc.path,
    title: doc.title,
    collection: doc.collection,
  };
  const message =
    note === undefined
      ? `no A-MEM note for ${document.docid} yet: notes are made when a document is written (sync or save)`
      : total === 0
        ? `no evolution recorded since ${iso(note.updatedAt)} (when the note was made)`
        : `${entries.length} of ${total} evolution entr${total === 1 ? 'y' : 'ies'}, newest first`;
  return {
    document,
    note:
      note === undefined
        ? null
        : {
            keywords: note.keywords,
            tags: note.tags,
            context: note.context,
            updatedAt: iso(note.updatedAt),
          },
    entries: entries.map((r) => entryOf(r, doc.id)),
    total,
    truncated: total > entries.length,
    message,
  };
}
