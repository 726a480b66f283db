// Named operations for the vault's co-activation (migration-vault-coactivation.ts): a session's
// reads join its working set, a document that joins pairs once with every document already in
// the set (re-reading a document of the set forms no new pair), and the scorer reads, for a set
// of candidates, each one's pair counts with the others.
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';

export interface CoAccessOptions {
  /** The reading session (one MCP connection). */
  session: string;
  at: number;
  /** How long a read stays in the session's working set (ms). */
  windowMs: number;
  /** At most this many documents of the set (the newest) pair with a newcomer. */
  maxSet: number;
}

export interface VaultCoActivation {
  /**
   * Records that `session` read `ids` of `vault` at `at`: each id not yet in the session's working
   * set pairs with the set's other documents (and with the other newcomers). Reads older than the
   * window leave every working set. Runs in the caller's write transaction.
   * @returns how many pairs were counted
   */
  recordCoAccess(
    tx: Queryable,
    vault: string,
    ids: readonly number[],
    options: CoAccessOptions,
  ): Promise<number>;
  /** For each of `ids`: the sum of its pair counts with the other ids (0 when none). */
  coActivations(vault: string, ids: readonly number[]): Promise<Map<number, number>>;
}

const pairOf = (x: number, y: number): [number, number] => (x < y ? [x, y] : [y, x]);

export function createVaultCoActivation(db: Queryable): VaultCoActivation {
  return {
    async recordCoAccess(tx, vault, ids, o) {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return 0;
      await tx.run('DELETE FROM vault_session_docs WHERE at < ?', [o.at - o.windowMs]);
      const set = await tx.all<{ id: number }>(
        `SELECT document_id AS id FROM vault_session_docs WHERE vault = ? AND session_key = ?
         ORDER BY at DESC, document_id DESC LIMIT ?`,
        [vault, o.session, o.maxSet],
      );
      const known = new Set(set.map((r) => r.id));
      const all = await tx.all<{ id: number }>(
        'SELECT document_id AS id FROM vault_session_docs WHERE vault = ? AND session_key = ?',
        [vault, o.session],
      );
      const inSet = new Set(all.map((r) => r.id));
      const newcomers = unique.filter((id) => !inSet.has(id));
      const partners = [...known, ...newcomers];
      const pairs = new Map<string, [number, number]>();
      for (const n of newcomers) {
        for (const p of partners) {
          if (p === n) continue;
          const pair = pairOf(n, p);
          pairs.set(`${pair[0]}:${pair[1]}`, pair);
        }
      }
      for (const [a, b] of pairs.values()) {
        await tx.run(
          `INSERT INTO vault_coactivations(vault, doc_a, doc_b, count, last_at) VALUES (?, ?, ?, 1, ?)
           ON CONFLICT(vault, doc_a, doc_b) DO UPDATE SET count = vault_coactivations.count + 1, last_at = excluded.last_at`,
          [vault, a, b, o.at],
        );
      }
      for (const id of unique) {
        await tx.run(
          `INSERT INTO vault_session_docs(vault, session_key, document_id, at) VALUES (?, ?, ?, ?)
           ON CONFLICT(vault, session_key, document_id) DO UPDATE SET at = excluded.at`,
          [vault, o.session, id, o.at],
        );
      }
      return pairs.size;
    },

    async coActivations(vault, ids) {
      const unique = [...new Set(ids)];
      const out = new Map<number, number>(unique.map((id) => [id, 0]));
      if (unique.length < 2) return out;
      const list = JSON.stringify(unique);
      const rows = await db.all<{ a: number; b: number; n: number }>(
        `SELECT doc_a AS a, doc_b AS b, count AS n FROM vault_coactivations
         WHERE vault = ? AND doc_a IN ${jsonIds(db.dialect)}
           AND doc_b IN ${jsonIds(db.dialect)}`,
        [vault, list, list],
      );
      for (const r of rows) {
        out.set(r.a, (out.get(r.a) ?? 0) + r.n);
        out.set(r.b, (out.get(r.b) ?? 0) + r.n);
      }
      return out;
    },
  };
}
