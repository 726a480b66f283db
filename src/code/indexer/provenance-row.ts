// Records who asked for an index (or a search) once per distinct provenance record: the row is
// found by the SHA-256 of the record's canonical JSON (keys sorted), so repeated identical
// records share one id. Portable SQL; runs inside the caller's write transaction.
import { createHash } from 'node:crypto';

import type { Provenance } from '../../activity/index.js';
import type { Queryable } from '../../store/index.js';

/** The record as canonical JSON: keys sorted, undefined fields left out. */
export function provenanceJson(provenance: Provenance): string {
  const entries = Object.entries(provenance)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The id of `provenance` in `code_provenance`, inserting it the first time it is seen. */
export async function recordProvenance(
  tx: Queryable,
  provenance: Provenance,
  now: number,
): Promise<number> {
  const json = provenanceJson(provenance);
  const digest = createHash('sha256').update(json).digest('hex');
  await tx.run(
    `INSERT INTO code_provenance
       (digest, session_id, agent_program, model_id, operator_id, machine_id, json, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING`,
    [
      digest,
      text(provenance.session_id),
      text(provenance.agent_program),
      text(provenance.model_id),
      text(provenance.operator_id),
      text(provenance.machine_id),
      json,
      now,
    ],
  );
  const row = await tx.get<{ id: number }>('SELECT id FROM code_provenance WHERE digest = ?', [
    digest,
  ]);
  if (row === undefined) throw new Error('code_provenance row vanished inside its transaction');
  return row.id;
}
