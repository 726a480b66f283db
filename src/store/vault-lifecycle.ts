// Named lifecycle operations on vault documents (pin, snooze, forget = deactivate with a reason,
// archive and restore, access counters), the timeline of a document's neighbours by effective
// time (authored_at, else modified_at) and per-collection statistics. Writes run inside the
// caller's write transaction; every statement is keyed by vault.
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';
import { DOC_FROM, META_COLUMNS, type RawMeta, toMeta } from './vault-rows.js';
import type { VaultDocumentMeta } from './vault-types.js';

export interface VaultCollectionStats {
  collection: string;
  contentRoot: string;
  lastSyncedAt: number | null;
  documents: number;
  active: number;
  inactive: number;
  pinned: number;
  /** Active documents snoozed past `now`. */
  snoozed: number;
  archived: number;
  /** Fragments of active documents, and how many have a vector from the model asked about. */
  fragments: number;
  embedded: number;
  /** Active documents by content type. */
  contentTypes: Record<string, number>;
  /** Inactive documents by deactivation reason ('' for none recorded). */
  deactivationReasons: Record<string, number>;
}

export interface VaultTimeline {
  /** Oldest first, then the reference, then `after` (oldest first). */
  before: VaultDocumentMeta[];
  reference: VaultDocumentMeta;
  after: VaultDocumentMeta[];
}

export interface VaultLifecycle {
  /** Each returns how many documents of `vault` changed. */
  setPinned(tx: Queryable, vault: string, ids: readonly number[], pinned: boolean): Promise<number>;
  setSnoozed(
    tx: Queryable,
    vault: string,
    ids: readonly number[],
    until: number | null,
  ): Promise<number>;
  deactivate(
    tx: Queryable,
    vault: string,
    ids: readonly number[],
    reason: string,
    at: number,
  ): Promise<number>;
  reactivate(tx: Queryable, vault: string, ids: readonly number[]): Promise<number>;
  archive(tx: Queryable, vault: string, ids: readonly number[], at: number): Promise<number>;
  restore(tx: Queryable, vault: string, ids: readonly number[]): Promise<number>;
  recordAccess(tx: Queryable, vault: string, ids: readonly number[], at: number): Promise<number>;
  /** Active documents around `documentId` by effective time (all collections unless asked). */
  timeline(
    vault: string,
    documentId: number,
    options: { before: number; after: number; sameCollection?: boolean },
  ): Promise<VaultTimeline | undefined>;
  stats(vault: string, options: { now: number; model?: string }): Promise<VaultCollectionStats[]>;
}

const EFFECTIVE = 'COALESCE(d.authored_at, d.modified_at)';

async function update(
  tx: Queryable,
  set: string,
  vault: string,
  ids: readonly number[],
  params: (number | string | null)[],
) {
  if (ids.length === 0) return 0;
  const r = await tx.run(
    `UPDATE vault_documents SET ${set} WHERE vault = ? AND id IN ${jsonIds(tx.dialect)}`,
    [...params, vault, JSON.stringify([...new Set(ids)])],
  );
  return r.changes;
}

export function createVaultLifecycle(db: Queryable): VaultLifecycle {
  async function neighbours(
    vault: string,
    ref: VaultDocumentMeta,
    n: number,
    later: boolean,
    same: boolean,
  ) {
    if (n < 1) return [];
    const t = ref.authoredAt ?? ref.modifiedAt;
    const cmp = later ? '>' : '<';
    const rows = await db.all<RawMeta>(
      `SELECT ${META_COLUMNS} FROM ${DOC_FROM}
       WHERE d.vault = ? AND d.active = 1 AND d.id <> ? ${same ? 'AND d.collection_id = ?' : ''}
         AND (${EFFECTIVE} ${cmp} ? OR (${EFFECTIVE} = ? AND d.id ${cmp} ?))
       ORDER BY ${EFFECTIVE} ${later ? 'ASC' : 'DESC'}, d.id ${later ? 'ASC' : 'DESC'} LIMIT ?`,
      [vault, ref.id, ...(same ? [ref.collectionId] : []), t, t, ref.id, Math.trunc(n)],
    );
    const list = rows.map(toMeta);
    return later ? list : list.reverse();
  }

  return {
    setPinned: (tx, vault, ids, pinned) => update(tx, 'pinned = ?', vault, ids, [pinned ? 1 : 0]),
    setSnoozed: (tx, vault, ids, until) => update(tx, 'snoozed_until = ?', vault, ids, [until]),
    deactivate: (tx, vault, ids, reason, at) =>
      update(tx, 'active = 0, deactivated_at = ?, deactivation_reason = ?', vault, ids, [
        at,
        reason,
      ]),
    reactivate: (tx, vault, ids) =>
      update(tx, 'active = 1, deactivated_at = NULL, deactivation_reason = NULL', vault, ids, []),
    archive: (tx, vault, ids, at) =>
      update(tx, 'archived_at = COALESCE(archived_at, ?)', vault, ids, [at]),
    restore: (tx, vault, ids) => update(tx, 'archived_at = NULL', vault, ids, []),
    recordAccess: (tx, vault, ids, at) =>
      update(tx, 'access_count = access_count + 1, last_accessed_at = ?', vault, ids, [at]),

    async timeline(vault, documentId, options) {
      const row = await db.get<RawMeta>(
        `SELECT ${META_COLUMNS} FROM ${DOC_FROM} WHERE d.vault = ? AND d.id = ?`,
        [vault, documentId],
      );
      if (row === undefined) return undefined;
      const reference = toMeta(row);
      const same = options.sameCollection === true;
      return {
        before: await neighbours(vault, reference, options.before, false, same),
        reference,
        after: await neighbours(vault, reference, options.after, true, same),
      };
    },

    async stats(vault, { now, model }) {
      const rows = await db.all<
        Omit<VaultCollectionStats, 'contentTypes' | 'deactivationReasons'> & { id: number }
      >(
        `SELECT c.id, c.name AS collection, c.content_root AS "contentRoot",
           c.last_synced_at AS "lastSyncedAt", COUNT(d.id) AS documents,
           COALESCE(SUM(d.active), 0) AS active, COUNT(d.id) - COALESCE(SUM(d.active), 0) AS inactive,
           COALESCE(SUM(d.pinned), 0) AS pinned,
           COALESCE(SUM(CASE WHEN d.active = 1 AND d.snoozed_until > ? THEN 1 ELSE 0 END), 0) AS snoozed,
           COALESCE(SUM(CASE WHEN d.archived_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS archived,
           (SELECT COUNT(*) FROM vault_fragments f JOIN vault_documents x ON x.id = f.document_id
             WHERE x.collection_id = c.id AND x.active = 1) AS fragments,
           (SELECT COUNT(*) FROM vault_vectors v WHERE v.collection_id = c.id AND v.model = ?) AS embedded
         FROM vault_collections c LEFT JOIN vault_documents d ON d.collection_id = c.id
         WHERE c.vault = ? GROUP BY c.id ORDER BY c.name`,
        [now, model ?? '', vault],
      );
      const groups = await db.all<{ id: number; active: number; key: string; n: number }>(
        `SELECT collection_id AS id, active,
           CASE WHEN active = 1 THEN content_type ELSE COALESCE(deactivation_reason, '') END AS key,
           COUNT(*) AS n FROM vault_documents WHERE vault = ? GROUP BY collection_id, active, key`,
        [vault],
      );
      return rows.map(({ id, ...r }) => {
        const mine = groups.filter((g) => g.id === id);
        const tally = (active: number) =>
          Object.fromEntries(mine.filter((g) => g.active === active).map((g) => [g.key, g.n]));
        return { ...r, contentTypes: tally(1), deactivationReasons: tally(0) };
      });
    },
  };
}
