// Named operations on vault collections, documents and fragments: the writes a sync or an API
// save makes (inside the caller's write transaction) and the reads `get`, `multi_get` and the
// tools make. Every read is keyed by vault. Rows are never deleted: documents deactivate.
import { createHash } from 'node:crypto';

import { jsonIds, jsonTexts } from './json-lists.js';
import type { Queryable } from './types.js';
import {
  COLLECTION_COLUMNS,
  DOC_COLUMNS,
  DOC_FROM,
  FRAGMENT_COLUMNS,
  META_COLUMNS,
  type RawDoc,
  type RawMeta,
  toDoc,
  toMeta,
} from './vault-rows.js';
import type {
  VaultCollectionRow,
  VaultDocumentInput,
  VaultDocumentMeta,
  VaultDocumentRow,
  VaultFragmentInput,
  VaultFragmentRow,
  VaultSyncState,
} from './vault-types.js';

const DOCID_MIN = 6;

/** The hex digest docids are cut from: stable for one vault, collection and path. */
export const docidDigest = (vault: string, collection: string, path: string): string =>
  createHash('sha256').update(`${vault}\0${collection}\0${path}`).digest('hex');

/** The shortest prefix (6 hex digits or more) of the digest no other document of the vault has. */
async function freshDocid(tx: Queryable, vault: string, digest: string): Promise<string> {
  for (let n = DOCID_MIN; n <= digest.length; n++) {
    const docid = digest.slice(0, n);
    const taken = await tx.get('SELECT 1 AS x FROM vault_documents WHERE vault = ? AND docid = ?', [
      vault,
      docid,
    ]);
    if (taken === undefined) return docid;
  }
  throw new Error('docid space exhausted');
}

const ids = (list: readonly number[]): string => JSON.stringify([...new Set(list)]);

export interface VaultDocuments {
  /** The collection `name` of `vault`, created (or its root and pattern updated) as given. */
  ensureCollection(
    tx: Queryable,
    c: { vault: string; name: string; contentRoot: string; pattern: string; now: number },
  ): Promise<VaultCollectionRow>;
  /** Collections of `vault` (all vaults when absent), by vault then name. */
  collections(vault?: string): Promise<VaultCollectionRow[]>;
  markSynced(tx: Queryable, collectionId: number, at: number): Promise<void>;
  /** Every document of the collection, active or not, with what a re-sync compares. */
  syncState(tx: Queryable, collectionId: number): Promise<VaultSyncState[]>;
  /**
   * Inserts the document, or updates the one at its collection and path (keeping its docid,
   * lifecycle and counters). Returns its id and docid.
   */
  upsertDocument(
    tx: Queryable,
    doc: VaultDocumentInput,
  ): Promise<{ id: number; docid: string; created: boolean }>;
  /** Whether the collection has a document (in any state) at `path`. */
  pathTaken(tx: Queryable, collectionId: number, path: string): Promise<boolean>;
  /** Records a new size and mtime for content that did not change. */
  touchDocument(tx: Queryable, id: number, size: number, mtime: number): Promise<void>;
  /** Replaces the document's fragments (their vectors go with them). */
  replaceFragments(
    tx: Queryable,
    documentId: number,
    fragments: readonly VaultFragmentInput[],
  ): Promise<void>;
  /** Documents of the vault at `path`, in any collection (or only `collection`), by collection. */
  documentsAtPath(vault: string, path: string, collection?: string): Promise<VaultDocumentRow[]>;
  /** The vault's document with this docid ('#' optional, case-insensitive). */
  documentByDocid(vault: string, docid: string): Promise<VaultDocumentRow | undefined>;
  /** Documents by id, restricted to the vault, in the order asked. */
  documentsById(vault: string, idList: readonly number[]): Promise<VaultDocumentRow[]>;
  /** The vault's documents (active only unless asked), by collection then path. */
  listDocuments(
    vault: string,
    options?: { collections?: readonly string[]; includeInactive?: boolean },
  ): Promise<VaultDocumentMeta[]>;
  fragmentsOf(documentId: number): Promise<VaultFragmentRow[]>;
}

export function createVaultDocuments(db: Queryable): VaultDocuments {
  const docsWhere = async (where: string, params: (string | number)[]) =>
    (await db.all<RawDoc>(`SELECT ${DOC_COLUMNS} FROM ${DOC_FROM} WHERE ${where}`, params)).map(
      toDoc,
    );

  return {
    async ensureCollection(tx, c) {
      await tx.run(
        `INSERT INTO vault_collections(vault, name, content_root, pattern, created_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT(vault, name) DO UPDATE SET
           content_root = excluded.content_root, pattern = excluded.pattern`,
        [c.vault, c.name, c.contentRoot, c.pattern, c.now],
      );
      const row = await tx.get<VaultCollectionRow>(
        `SELECT ${COLLECTION_COLUMNS} FROM vault_collections WHERE vault = ? AND name = ?`,
        [c.vault, c.name],
      );
      if (row === undefined) throw new Error('collection upsert returned nothing');
      return row;
    },

    collections: (vault) =>
      vault === undefined
        ? db.all(`SELECT ${COLLECTION_COLUMNS} FROM vault_collections ORDER BY vault, name`)
        : db.all(
            `SELECT ${COLLECTION_COLUMNS} FROM vault_collections WHERE vault = ? ORDER BY name`,
            [vault],
          ),

    async markSynced(tx, collectionId, at) {
      await tx.run('UPDATE vault_collections SET last_synced_at = ? WHERE id = ?', [
        at,
        collectionId,
      ]);
    },

    async syncState(tx, collectionId) {
      const rows = await tx.all<Omit<VaultSyncState, 'active'> & { active: number }>(
        `SELECT id, path, size, mtime, content_hash AS "contentHash", origin, active,
           deactivation_reason AS "deactivationReason"
         FROM vault_documents WHERE collection_id = ?`,
        [collectionId],
      );
      return rows.map((r) => ({ ...r, active: r.active === 1 }));
    },

    async upsertDocument(tx, d) {
      const existing = await tx.get<{ id: number; docid: string }>(
        'SELECT id, docid FROM vault_documents WHERE collection_id = ? AND path = ?',
        [d.collectionId, d.path],
      );
      const fields = [
        d.title,
        d.contentType,
        JSON.stringify(d.frontmatter),
        d.content,
        d.contentHash,
        d.size,
        d.mtime,
        d.lines,
        d.words,
        d.modifiedAt,
        d.authoredAt,
      ];
      if (existing !== undefined) {
        await tx.run(
          `UPDATE vault_documents SET title = ?, content_type = ?, frontmatter = ?, content = ?,
             content_hash = ?, size = ?, mtime = ?, lines = ?, words = ?, modified_at = ?,
             authored_at = ?, confidence = COALESCE(?, confidence),
             quality_score = COALESCE(?, quality_score) WHERE id = ?`,
          [...fields, d.confidence, d.quality, existing.id],
        );
        return { ...existing, created: false };
      }
      const collection = await tx.get<{ name: string }>(
        'SELECT name FROM vault_collections WHERE id = ?',
        [d.collectionId],
      );
      const digest = docidDigest(d.vault, collection?.name ?? '', d.path);
      const docid = await freshDocid(tx, d.vault, digest);
      const row = await tx.get<{ id: number }>(
        `INSERT INTO vault_documents(title, content_type, frontmatter, content, content_hash, size,
           mtime, lines, words, modified_at, authored_at, vault, collection_id, path, docid,
           origin, created_at, confidence, quality_score)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 0.5), COALESCE(?, 0.5))
         RETURNING id`,
        [
          ...fields,
          d.vault,
          d.collectionId,
          d.path,
          docid,
          d.origin,
          d.now,
          d.confidence,
          d.quality,
        ],
      );
      if (row === undefined) throw new Error('document insert returned nothing');
      return { id: row.id, docid, created: true };
    },

    async pathTaken(tx, collectionId, path) {
      const row = await tx.get(
        'SELECT 1 AS x FROM vault_documents WHERE collection_id = ? AND path = ?',
        [collectionId, path],
      );
      return row !== undefined;
    },

    async touchDocument(tx, id, size, mtime) {
      await tx.run('UPDATE vault_documents SET size = ?, mtime = ? WHERE id = ?', [
        size,
        mtime,
        id,
      ]);
    },

    async replaceFragments(tx, documentId, fragments) {
      await tx.run('DELETE FROM vault_fragments WHERE document_id = ?', [documentId]);
      for (const f of fragments) {
        await tx.run(
          `INSERT INTO vault_fragments(document_id, ordinal, kind, heading_path, start_line,
             end_line, text) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [documentId, f.ordinal, f.kind, f.headingPath, f.startLine, f.endLine, f.text],
        );
      }
    },

    documentsAtPath: (vault, path, collection) =>
      collection === undefined
        ? docsWhere('d.vault = ? AND d.path = ? ORDER BY c.name', [vault, path])
        : docsWhere('d.vault = ? AND d.path = ? AND c.name = ?', [vault, path, collection]),

    async documentByDocid(vault, docid) {
      const key = docid.replace(/^#/, '').toLowerCase();
      return (await docsWhere('d.vault = ? AND d.docid = ?', [vault, key]))[0];
    },

    async documentsById(vault, idList) {
      const rows = await docsWhere(`d.vault = ? AND d.id IN ${jsonIds(db.dialect)}`, [
        vault,
        ids(idList),
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return idList.flatMap((id) => byId.get(id) ?? []);
    },

    async listDocuments(vault, options = {}) {
      const names = options.collections;
      const rows = await db.all<RawMeta>(
        `SELECT ${META_COLUMNS} FROM ${DOC_FROM} WHERE d.vault = ?
           ${options.includeInactive === true ? '' : 'AND d.active = 1'}
           ${names === undefined ? '' : `AND c.name IN ${jsonTexts(db.dialect)}`}
         ORDER BY c.name, d.path`,
        names === undefined ? [vault] : [vault, JSON.stringify(names)],
      );
      return rows.map(toMeta);
    },

    fragmentsOf: (documentId) =>
      db.all<VaultFragmentRow>(
        `SELECT ${FRAGMENT_COLUMNS} FROM vault_fragments WHERE document_id = ? ORDER BY ordinal`,
        [documentId],
      ),
  };
}
