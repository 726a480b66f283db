// Named operations on agent sessions, their tool calls and delegations (migration 27). Portable
// SQL over any Queryable (the store, or a write transaction); rows come back as stored (JSON
// columns as text): the activity domain (src/activity/sessions) shapes them.
import type { Queryable, SqlValue } from './types.js';

export interface SessionRow {
  id: string;
  parent_session_id: string | null;
  status: string;
  agent_type: string | null;
  agent_program: string | null;
  model_id: string | null;
  repo_id: string | null;
  repo_path: string | null;
  project_id: string | null;
  worktree_id: string | null;
  operator_id: string | null;
  machine_id: string | null;
  delegated: number;
  title: string | null;
  data: string;
  provenance: string;
  started_at: number;
  updated_at: number;
  ended_at: number | null;
  summary_hash: string | null;
  summary_id: string | null;
}

/** A session row with its activity counts (list and get). */
export interface SessionRowCounts extends SessionRow {
  tool_calls: number;
  errors: number;
  delegations: number;
}

export interface ToolCallRow {
  id: string;
  session_id: string;
  seq: number;
  tool_name: string;
  status: 'ok' | 'error';
  args: string;
  result: string | null;
  error: string | null;
  duration_ms: number | null;
  files: string;
  provenance: string;
  created_at: number;
}

export interface DelegationRow {
  id: string;
  parent_session_id: string;
  child_session_id: string;
  seq: number;
  agent_type: string | null;
  task: string | null;
  status: string;
  result: string | null;
  provenance: string;
  created_at: number;
}

/** The session-list filters (all optional, ANDed). */
export interface SessionFilter {
  project_id?: string | undefined;
  worktree_id?: string | undefined;
  agent_type?: string | undefined;
  status?: string | undefined;
  parent_session_id?: string | undefined;
}

const SESSION_COLUMNS = [
  'id',
  'parent_session_id',
  'status',
  'agent_type',
  'agent_program',
  'model_id',
  'repo_id',
  'repo_path',
  'project_id',
  'worktree_id',
  'operator_id',
  'machine_id',
  'delegated',
  'title',
  'data',
  'provenance',
  'started_at',
  'updated_at',
  'ended_at',
] as const;

const COUNTS = `
  (SELECT COUNT(*) FROM agent_tool_calls c WHERE c.session_id = s.id) AS tool_calls,
  (SELECT COUNT(*) FROM agent_tool_calls c WHERE c.session_id = s.id AND c.status = 'error') AS errors,
  (SELECT COUNT(*) FROM agent_delegations d WHERE d.parent_session_id = s.id) AS delegations`;

export type NewSessionRow = Omit<SessionRow, 'summary_hash' | 'summary_id'>;

export async function insertSession(db: Queryable, row: NewSessionRow): Promise<void> {
  await db.run(
    `INSERT INTO agent_sessions (${SESSION_COLUMNS.join(', ')})
     VALUES (${SESSION_COLUMNS.map(() => '?').join(', ')})`,
    SESSION_COLUMNS.map((c) => row[c]),
  );
}

export async function sessionById(
  db: Queryable,
  id: string,
): Promise<SessionRowCounts | undefined> {
  return db.get<SessionRowCounts>(`SELECT s.*, ${COUNTS} FROM agent_sessions s WHERE s.id = ?`, [
    id,
  ]);
}

/** Sets the given columns of one session (and updated_at); false when there is no such session. */
export async function updateSessionRow(
  db: Queryable,
  id: string,
  set: Partial<
    Pick<
      SessionRow,
      | 'status'
      | 'title'
      | 'data'
      | 'ended_at'
      | 'agent_type'
      | 'parent_session_id'
      | 'delegated'
      | 'summary_hash'
      | 'summary_id'
    >
  >,
  updatedAt: number,
): Promise<boolean> {
  const entries = Object.entries(set).filter(([, v]) => v !== undefined);
  const sql = [...entries.map(([k]) => `${k} = ?`), 'updated_at = ?'].join(', ');
  const params: SqlValue[] = [...entries.map(([, v]) => v as SqlValue), updatedAt, id];
  const done = await db.run(`UPDATE agent_sessions SET ${sql} WHERE id = ?`, params);
  return done.changes > 0;
}

function filterSql(f: SessionFilter): { where: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const key of [
    'project_id',
    'worktree_id',
    'agent_type',
    'status',
    'parent_session_id',
  ] as const) {
    const value = f[key];
    if (value === undefined) continue;
    clauses.push(`s.${key} = ?`);
    params.push(value);
  }
  return { where: clauses.length === 0 ? '1 = 1' : clauses.join(' AND '), params };
}

/** Newest first, at most `limit`, with counts. */
export async function listSessionRows(
  db: Queryable,
  filter: SessionFilter,
  limit: number,
): Promise<SessionRowCounts[]> {
  const { where, params } = filterSql(filter);
  return db.all<SessionRowCounts>(
    `SELECT s.*, ${COUNTS} FROM agent_sessions s WHERE ${where}
     ORDER BY s.started_at DESC, s.id DESC LIMIT ?`,
    [...params, limit],
  );
}

/** How many sessions pass the filter, and how many exist at all. */
export async function countSessions(
  db: Queryable,
  filter: SessionFilter,
): Promise<{ matching: number; stored: number }> {
  const { where, params } = filterSql(filter);
  const row = await db.get<{ matching: number; stored: number }>(
    `SELECT (SELECT COUNT(*) FROM agent_sessions s WHERE ${where}) AS matching,
            (SELECT COUNT(*) FROM agent_sessions) AS stored`,
    params,
  );
  return row ?? { matching: 0, stored: 0 };
}

export type NewToolCallRow = Omit<ToolCallRow, 'seq'>;

/** Appends a tool call with the session's next sequence number; returns that number. */
export async function insertToolCall(db: Queryable, row: NewToolCallRow): Promise<number> {
  const next = await db.get<{ seq: number }>(
    'SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM agent_tool_calls WHERE session_id = ?',
    [row.session_id],
  );
  const seq = next?.seq ?? 1;
  await db.run(
    `INSERT INTO agent_tool_calls
       (id, session_id, seq, tool_name, status, args, result, error, duration_ms, files, provenance, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.session_id,
      seq,
      row.tool_name,
      row.status,
      row.args,
      row.result,
      row.error,
      row.duration_ms,
      row.files,
      row.provenance,
      row.created_at,
    ],
  );
  return seq;
}

/** A session's tool calls in the order they were logged (at most `limit`, first ones). */
export async function toolCallsOf(
  db: Queryable,
  sessionId: string,
  limit: number,
): Promise<ToolCallRow[]> {
  return db.all<ToolCallRow>(
    'SELECT * FROM agent_tool_calls WHERE session_id = ? ORDER BY seq LIMIT ?',
    [sessionId, limit],
  );
}

export type NewDelegationRow = Omit<DelegationRow, 'seq'>;

/** Appends a delegation with the parent's next sequence number; returns that number. */
export async function insertDelegation(db: Queryable, row: NewDelegationRow): Promise<number> {
  const next = await db.get<{ seq: number }>(
    'SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM agent_delegations WHERE parent_session_id = ?',
    [row.parent_session_id],
  );
  const seq = next?.seq ?? 1;
  await db.run(
    `INSERT INTO agent_delegations
       (id, parent_session_id, child_session_id, seq, agent_type, task, status, result, provenance, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.parent_session_id,
      row.child_session_id,
      seq,
      row.agent_type,
      row.task,
      row.status,
      row.result,
      row.provenance,
      row.created_at,
    ],
  );
  return seq;
}

/** The delegations a session made, in order (at most `limit`). */
export async function delegationsOf(
  db: Queryable,
  parentId: string,
  limit: number,
): Promise<DelegationRow[]> {
  return db.all<DelegationRow>(
    'SELECT * FROM agent_delegations WHERE parent_session_id = ? ORDER BY seq LIMIT ?',
    [parentId, limit],
  );
}

export async function toolCallById(db: Queryable, id: string): Promise<ToolCallRow | undefined> {
  return db.get<ToolCallRow>('SELECT * FROM agent_tool_calls WHERE id = ?', [id]);
}

/** The delegation from `parentId` to `childId`, if one was logged. */
export async function delegationBetween(
  db: Queryable,
  parentId: string,
  childId: string,
): Promise<DelegationRow | undefined> {
  return db.get<DelegationRow>(
    'SELECT * FROM agent_delegations WHERE parent_session_id = ? AND child_session_id = ?',
    [parentId, childId],
  );
}

/** Sets a delegation's status and result. */
export async function updateDelegationRow(
  db: Queryable,
  id: string,
  status: string,
  result: string | null,
): Promise<void> {
  await db.run(
    'UPDATE agent_delegations SET status = ?, result = COALESCE(?, result) WHERE id = ?',
    [status, result, id],
  );
}

/** Records the summary a session was last summarized to (updated_at is left alone). */
export async function setSessionSummary(
  db: Queryable,
  id: string,
  hash: string,
  memoryId: string | null,
): Promise<void> {
  await db.run('UPDATE agent_sessions SET summary_hash = ?, summary_id = ? WHERE id = ?', [
    hash,
    memoryId,
    id,
  ]);
}
