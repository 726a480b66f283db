// Migration 18 on a database written before it: grants keyed on a self-reported client name
// (`client:<name>`, `anonymous`) are dropped; a bound agent's grant carries over as the
// principal `agent:<id>`, with its granter taken from the approval that made it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig18-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GRANTS = [
  ['client:claude-code', 'delete_path', null, 10],
  ['anonymous', 'web_search', null, 11],
  ['ops', 'delete_path', 'A1', 12],
] as const;

/** A file at the schema before migration 18: one grant of each kind, the approval behind ops's. */
function writeBefore18(path: string): void {
  const db = sqliteBefore(path, 18);
  db.prepare(
    `INSERT INTO tool_approvals (id, call_id, tool, caller, args, reason, status, decision,
       decided_by, created_at, expires_at, decided_at)
     VALUES ('A1', 'C1', 'delete_path', 'ops', '{}', 'r', 'allowed', 'allow_always', 'alice', 1, 2, 3)`,
  ).run();
  const insert = db.prepare(
    'INSERT INTO tool_grants (caller, tool, approval_id, created_at) VALUES (?, ?, ?, ?)',
  );
  for (const g of GRANTS) insert.run(...g);
  db.close();
}

describe('migration 18 (grants bound to principals)', () => {
  it("drops client-name grants and keeps bound agents' as agent:<id>", async () => {
    const path = join(dir, 'old.db');
    writeBefore18(path);
    const store = await openSqliteStore(path);
    try {
      const rows = await store.all<Record<string, unknown>>(
        'SELECT principal, tool, approval_id, granted_by, created_at, expires_at, revoked_at FROM tool_grants',
      );
      expect(rows).toEqual([
        {
          ...{ principal: 'agent:ops', tool: 'delete_path', approval_id: 'A1' },
          ...{ granted_by: 'alice', created_at: 12, expires_at: null, revoked_at: null },
        },
      ]);
      const approval = await store.get<{ principal: string | null }>(
        "SELECT principal FROM tool_approvals WHERE id = 'A1'",
      );
      expect(approval).toEqual({ principal: null });
      // One live grant per principal and tool.
      const dup = store.run(
        "INSERT INTO tool_grants (id, principal, tool, granted_by, created_at) VALUES ('x', 'agent:ops', 'delete_path', 'b', 1)",
      );
      await expect(dup).rejects.toThrow(/UNIQUE/);
    } finally {
      await store.close();
    }
  });
});
