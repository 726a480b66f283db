// What reading documents records: each read counts an access (the frequency the scorer reads)
// and joins the reading session's working set, where a newcomer pairs once with the documents the
// session read within CO_ACCESS_WINDOW_MS (the co-activation the scorer reads). One write
// transaction, so the counts and the pairs never disagree.
import type { Store } from '../store/index.js';

/** A read stays in its session's working set this long. */
export const CO_ACCESS_WINDOW_MS = 30 * 60_000;

/** A newcomer pairs with at most this many documents of the set (the newest reads). */
export const CO_ACCESS_MAX_SET = 32;

export interface AccessReport {
  /** Documents whose access count grew. */
  accessed: number;
  /** Pairs whose co-activation count grew. */
  pairs: number;
}

/**
 * Records that `session` (one connection: a stable key per client) read `ids` of `vault` at `at`.
 */
export async function recordReads(
  store: Store,
  vault: string,
  ids: readonly number[],
  session: string,
  at: number,
): Promise<AccessReport> {
  if (ids.length === 0) return { accessed: 0, pairs: 0 };
  return store.write(async (tx) => {
    const accessed = await store.vaultIndex.recordAccess(tx, vault, ids, at);
    const pairs = await store.vaultIndex.recordCoAccess(tx, vault, ids, {
      session,
      at,
      windowMs: CO_ACCESS_WINDOW_MS,
      maxSet: CO_ACCESS_MAX_SET,
    });
    return { accessed, pairs };
  });
}
