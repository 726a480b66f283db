// Notes recorded by the `note` tool: persisted, readable later (CLI, REST, broker.listNotes).
import { randomUUID } from 'node:crypto';

import type { Queryable } from '../store/index.js';

export interface Note {
  id: string;
  caller: string;
  note: string;
  createdAt: number;
}

interface NoteRow {
  id: string;
  caller: string;
  note: string;
  created_at: number;
}

export async function insertNote(
  q: Queryable,
  input: { caller: string; note: string; now: number },
): Promise<Note> {
  const note: Note = {
    id: randomUUID(),
    caller: input.caller,
    note: input.note,
    createdAt: input.now,
  };
  await q.run('INSERT INTO tool_notes (id, caller, note, created_at) VALUES (?, ?, ?, ?)', [
    note.id,
    note.caller,
    note.note,
    note.createdAt,
  ]);
  return note;
}

/** Recent notes, newest first, optionally one caller's. */
export async function selectNotes(
  q: Queryable,
  query: { caller?: string | undefined; limit?: number | undefined },
): Promise<Note[]> {
  const rows = await q.all<NoteRow>(
    `SELECT * FROM tool_notes WHERE (CAST(? AS TEXT) IS NULL OR caller = ?)
     ORDER BY created_at DESC, id LIMIT ?`,
    [query.caller ?? null, query.caller ?? null, query.limit ?? 50],
  );
  return rows.map((r) => ({ id: r.id, caller: r.caller, note: r.note, createdAt: r.created_at }));
}
