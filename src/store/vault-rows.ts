// How vault rows are read: the column lists and the mapping from SQLite's integers and JSON text
// to the typed rows of vault-types.ts. Shared by the vault's store operations.
import type {
  VaultCollectionRow,
  VaultDocumentMeta,
  VaultDocumentRow,
  VaultFragmentRow,
} from './vault-types.js';

export const COLLECTION_COLUMNS = `id, vault, name, content_root AS "contentRoot", pattern,
  created_at AS "createdAt", last_synced_at AS "lastSyncedAt"`;

export const META_COLUMNS = `d.id, d.vault, d.collection_id AS "collectionId", c.name AS collection,
  d.path, d.docid, d.title, d.content_type AS "contentType", d.content_hash AS "contentHash", d.size,
  d.mtime, d.lines, d.words, d.created_at AS "createdAt", d.modified_at AS "modifiedAt",
  d.authored_at AS "authoredAt", d.origin, d.active, d.deactivated_at AS "deactivatedAt",
  d.deactivation_reason AS "deactivationReason", d.pinned, d.snoozed_until AS "snoozedUntil",
  d.archived_at AS "archivedAt", d.access_count AS "accessCount",
  d.last_accessed_at AS "lastAccessedAt", d.confidence, d.quality_score AS "qualityScore",
  d.canonical, d.superseded_by AS "supersededBy"`;

export const DOC_COLUMNS = `${META_COLUMNS}, d.content, d.frontmatter`;

export const DOC_FROM = 'vault_documents d JOIN vault_collections c ON c.id = d.collection_id';

export const FRAGMENT_COLUMNS = `id, document_id AS "documentId", ordinal, kind,
  heading_path AS "headingPath", start_line AS "startLine", end_line AS "endLine", text`;

type Flags = 'active' | 'pinned' | 'canonical';
export type RawMeta = Omit<VaultDocumentMeta, Flags> & Record<Flags, number>;
export type RawDoc = RawMeta & { content: string; frontmatter: string };

export function toMeta(r: RawMeta): VaultDocumentMeta {
  return { ...r, active: r.active === 1, pinned: r.pinned === 1, canonical: r.canonical === 1 };
}

export function toDoc(r: RawDoc): VaultDocumentRow {
  let frontmatter: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(r.frontmatter);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      frontmatter = parsed as Record<string, unknown>;
  } catch {
    // A row written outside the store: serve the document without its frontmatter.
  }
  return { ...toMeta(r), content: r.content, frontmatter };
}

export type { VaultCollectionRow, VaultFragmentRow };
