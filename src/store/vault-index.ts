// The vault's named operations as one object on the store (store.vaultIndex): documents and
// fragments (vault-documents.ts), BM25 over fragments (vault-search.ts), fragment vectors and
// their backlog (vault-vectors.ts), lifecycle, timeline and statistics (vault-lifecycle.ts),
// co-activation (vault-coactivation.ts).
import type { Queryable } from './types.js';
import { createVaultCoActivation, type VaultCoActivation } from './vault-coactivation.js';
import { createVaultDocuments, type VaultDocuments } from './vault-documents.js';
import { createVaultLifecycle, type VaultLifecycle } from './vault-lifecycle.js';
import { createVaultSearch, type VaultRank, type VaultSearch } from './vault-search.js';
import { createVaultVectors, type VaultVectors } from './vault-vectors.js';
import type { VectorTables } from './vector-tables.js';

export interface VaultIndex
  extends VaultDocuments, VaultSearch, VaultVectors, VaultLifecycle, VaultCoActivation {
  /** Fragments the postings do not hold yet (written past the store): 0 means search sees all. */
  pendingPostings(): Promise<number>;
}

/**
 * Builds the vault operations over a queryable connection; the fragment vectors live in
 * `vectors` (default: sqlite-vec on `db`).
 */
export function createVaultIndex(
  db: Queryable,
  rank: VaultRank,
  vectors?: VectorTables,
): VaultIndex {
  return {
    ...createVaultDocuments(db),
    ...createVaultSearch(db, rank),
    ...createVaultVectors(db, vectors),
    ...createVaultLifecycle(db),
    ...createVaultCoActivation(db),
    async pendingPostings() {
      const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM vault_postings_dirty');
      return row?.n ?? 0;
    },
  };
}
