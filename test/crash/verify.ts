// Reads the database a crash run left behind and reports, per write kind, what was
// acknowledged and kept, and every problem: an acknowledged write missing or incomplete, a
// half-written structure (an orphan, a gap, a row without the rows its transaction writes
// with it), a failed integrity check. It opens a copy of the file (and its WAL), so the
// original stays exactly as the crashes left it. Never throws on a finding; it lists it.
import { copyFileSync, existsSync } from 'node:fs';

import Database from 'better-sqlite3';

import { type Ledger, WRITE_KINDS, type WriteKind } from './ledger.js';
import { checkBoard, checkDelegations } from './verify-board.js';
import { checkApprovals, checkNotes } from './verify-broker.js';
import { checkMemory, checkRooms } from './verify-memory-rooms.js';

export interface KindFigures {
  attempted: number;
  acknowledged: number;
  /** Acknowledged writes found whole. */
  kept: number;
  /** Unacknowledged writes (in flight at a kill, or refused) found whole anyway. */
  landedUnacknowledged: number;
}

export interface Verdict {
  figures: Record<WriteKind, KindFigures>;
  integrity: string;
  foreignKeyViolations: number;
  problems: string[];
}

/** One check's findings: problems, and which writes it found whole (by ledger index). */
export interface Findings {
  problems: string[];
  whole: Set<number>;
}

export type Db = Database.Database;

/** Copies `db` (and `db-wal`) to `db.snapshot` and opens the copy; its WAL is recovered there. */
function openSnapshot(db: string): Db {
  const copy = `${db}.snapshot`;
  copyFileSync(db, copy);
  if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${copy}-wal`);
  return new Database(copy);
}

function integrity(conn: Db): { text: string; fk: number; problems: string[] } {
  const rows = conn.pragma('integrity_check') as Array<{ integrity_check: string }>;
  const text = rows.map((r) => r.integrity_check).join('; ');
  const fk = (conn.pragma('foreign_key_check') as unknown[]).length;
  const problems: string[] = [];
  if (text !== 'ok') problems.push(`integrity_check: ${text}`);
  if (fk > 0) problems.push(`foreign_key_check: ${fk} violations`);
  try {
    // FTS5 compares its index with the memory_items content table.
    conn.exec("INSERT INTO memory_fts(memory_fts, rank) VALUES ('integrity-check', 1)");
  } catch (err) {
    problems.push(`memory_fts integrity-check: ${(err as Error).message}`);
  }
  return { text, fk, problems };
}

/** Checks the file against the ledger. */
export function verifyCrash(db: string, ledger: Ledger): Verdict {
  const conn = openSnapshot(db);
  try {
    const check = integrity(conn);
    const parts: Findings[] = [
      checkBoard(conn, ledger),
      checkDelegations(conn, ledger),
      checkMemory(conn, ledger),
      checkRooms(conn, ledger),
      checkNotes(conn, ledger),
      checkApprovals(conn, ledger),
    ];
    const whole = new Set(parts.flatMap((p) => [...p.whole]));
    const figures = Object.fromEntries(
      WRITE_KINDS.map((kind) => {
        const f: KindFigures = { attempted: 0, acknowledged: 0, kept: 0, landedUnacknowledged: 0 };
        ledger.writes.forEach((w, i) => {
          if (w.kind !== kind) return;
          f.attempted += 1;
          if (w.acked !== undefined) f.acknowledged += 1;
          if (w.acked !== undefined && whole.has(i)) f.kept += 1;
          if (w.acked === undefined && whole.has(i)) f.landedUnacknowledged += 1;
        });
        return [kind, f];
      }),
    ) as Record<WriteKind, KindFigures>;
    const problems = [...check.problems, ...parts.flatMap((p) => p.problems)];
    ledger.writes.forEach((w, i) => {
      if (w.acked !== undefined && !whole.has(i))
        problems.push(`acknowledged ${w.kind} ${w.marker} ${JSON.stringify(w.acked)} not kept`);
    });
    return { figures, integrity: check.text, foreignKeyViolations: check.fk, problems };
  } finally {
    conn.close();
  }
}
