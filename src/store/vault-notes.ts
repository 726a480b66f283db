// Named operations on the vault's A-MEM notes (migration 30): read notes, write one, append an
// evolution entry (a note's before and after, the document that triggered it), and read a
// document's evolution newest first with its trigger document. Writes take the caller's tx.
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';

export interface VaultNote {
  documentId: number;
  keywords: string[];
  tags: string[];
  context: string;
  updatedAt: number;
}

export interface VaultEvolutionInput {
  documentId: number;
  triggerId: number | null;
  before: Omit<VaultNote, 'documentId' | 'updatedAt'>;
  after: Omit<VaultNote, 'documentId' | 'updatedAt'>;
  at: number;
}

export interface VaultEvolutionRow {
  id: number;
  keywordsBefore: string[];
  keywordsAfter: string[];
  tagsBefore: string[];
  tagsAfter: string[];
  contextBefore: string;
  contextAfter: string;
  createdAt: number;
  trigger: { id: number; docid: string; path: string; title: string; collection: string } | null;
}

const strings = (json: string): string[] => {
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

interface RawNote {
  documentId: number;
  keywords: string;
  tags: string;
  context: string;
  updatedAt: number;
}

/** The notes of `documentIds` that exist, by document id. */
export async function readVaultNotes(
  db: Queryable,
  documentIds: readonly number[],
): Promise<Map<number, VaultNote>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db.all<RawNote>(
    `SELECT document_id AS "documentId", keywords, tags, context, updated_at AS "updatedAt"
     FROM vault_notes WHERE document_id IN ${jsonIds(db.dialect)}`,
    [JSON.stringify([...documentIds])],
  );
  return new Map(
    rows.map((r) => [r.documentId, { ...r, keywords: strings(r.keywords), tags: strings(r.tags) }]),
  );
}

/** Writes (or replaces) a document's note. */
export async function writeVaultNote(tx: Queryable, note: VaultNote): Promise<void> {
  await tx.run(
    `INSERT INTO vault_notes(document_id, keywords, tags, context, updated_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(document_id) DO UPDATE SET keywords = excluded.keywords, tags = excluded.tags,
       context = excluded.context, updated_at = excluded.updated_at`,
    [
      note.documentId,
      JSON.stringify(note.keywords),
      JSON.stringify(note.tags),
      note.context,
      note.updatedAt,
    ],
  );
}

/** Appends one evolution entry. */
export async function logVaultEvolution(tx: Queryable, e: VaultEvolutionInput): Promise<void> {
  await tx.run(
    `INSERT INTO vault_evolution(document_id, trigger_id, keywords_before, keywords_after,
       tags_before, tags_after, context_before, context_after, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      e.documentId,
      e.triggerId,
      JSON.stringify(e.before.keywords),
      JSON.stringify(e.after.keywords),
      JSON.stringify(e.before.tags),
      JSON.stringify(e.after.tags),
      e.before.context,
      e.after.context,
      e.at,
    ],
  );
}

interface RawEvolution {
  id: number;
  kb: string;
  ka: string;
  tb: string;
  ta: string;
  contextBefore: string;
  contextAfter: string;
  createdAt: number;
  tid: number | null;
  docid: string | null;
  path: string | null;
  title: string | null;
  collection: string | null;
}

/** A document's evolution entries, newest first (at most `limit`), and how many there are. */
export async function vaultEvolutionOf(
  db: Queryable,
  documentId: number,
  limit: number,
): Promise<{ entries: VaultEvolutionRow[]; total: number }> {
  const rows = await db.all<RawEvolution>(
    `SELECT e.id, e.keywords_before AS kb, e.keywords_after AS ka, e.tags_before AS tb,
       e.tags_after AS ta, e.context_before AS "contextBefore", e.context_after AS "contextAfter",
       e.created_at AS "createdAt", t.id AS tid, t.docid, t.path, t.title, c.name AS collection
     FROM vault_evolution e LEFT JOIN vault_documents t ON t.id = e.trigger_id
     LEFT JOIN vault_collections c ON c.id = t.collection_id
     WHERE e.document_id = ? ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
    [documentId, limit],
  );
  const count = await db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM vault_evolution WHERE document_id = ?',
    [documentId],
  );
  const entries = rows.map((r) => ({
    id: r.id,
    keywordsBefore: strings(r.kb),
    keywordsAfter: strings(r.ka),
    tagsBefore: strings(r.tb),
    tagsAfter: strings(r.ta),
    contextBefore: r.contextBefore,
    contextAfter: r.contextAfter,
    createdAt: r.createdAt,
    trigger:
      r.tid === null
        ? null
        : {
            id: r.tid,
            docid: r.docid ?? '',
            path: r.path ?? '',
            title: r.title ?? '',
            collection: r.collection ?? '',
          },
  }));
  return { entries, total: count?.n ?? 0 };
}

/** The keywords of every note of an active document of `vault` (what relatedness is judged by). */
export async function vaultNoteKeywords(
  db: Queryable,
  vault: string,
): Promise<{ documentId: number; keywords: string[] }[]> {
  const rows = await db.all<{ documentId: number; keywords: string }>(
    `SELECT n.document_id AS "documentId", n.keywords FROM vault_notes n
     JOIN vault_documents d ON d.id = n.document_id
     WHERE d.vault = ? AND d.active = 1 ORDER BY n.document_id`,
    [vault],
  );
  return rows.map((r) => ({ documentId: r.documentId, keywords: strings(r.keywords) }));
}
