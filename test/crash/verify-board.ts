// Board checks of a crashed file: every task's event log explains its status (created once,
// each change chained to the last), and the tasks, comments, claims and delegations the
// ledger sent are there whole, or (unacknowledged) absent.
import type { Ledger } from './ledger.js';
import type { Db, Findings } from './verify.js';
import { CLAIMER, TEAMMATE } from './writers.js';

interface TaskRow {
  id: string;
  title: string;
  parent_task_id: string | null;
  status: string;
  assignee_agent_id: string | null;
}

interface EventRow {
  task_id: string;
  from_status: string | null;
  to_status: string;
  actor: string | null;
  reason: string | null;
}

/** Every event of every task, oldest first, by task. */
function eventsByTask(conn: Db): Map<string, EventRow[]> {
  const out = new Map<string, EventRow[]>();
  const rows = conn
    .prepare('SELECT task_id, from_status, to_status, actor, reason FROM task_events ORDER BY id')
    .all() as EventRow[];
  for (const e of rows) out.set(e.task_id, [...(out.get(e.task_id) ?? []), e]);
  return out;
}

/** A task's events must start with its creation and chain up to its current status. */
function chainProblem(task: TaskRow, events: readonly EventRow[]): string | null {
  const first = events[0];
  if (first === undefined || first.from_status !== null || first.reason !== 'create')
    return `task ${task.id} (${task.title}) has no create event`;
  for (let i = 1; i < events.length; i++) {
    if (events[i]?.from_status !== events[i - 1]?.to_status)
      return `task ${task.id} events do not chain at event ${i}`;
  }
  const last = events[events.length - 1];
  if (last?.to_status !== task.status)
    return `task ${task.id} is ${task.status} but its last event moved it to ${last?.to_status}`;
  return null;
}

function loadTasks(conn: Db): TaskRow[] {
  return conn
    .prepare('SELECT id, title, parent_task_id, status, assignee_agent_id FROM tasks')
    .all() as TaskRow[];
}

/** Tasks, their event chains, comments and claims. */
export function checkBoard(conn: Db, ledger: Ledger): Findings {
  const problems: string[] = [];
  const whole = new Set<number>();
  const tasks = loadTasks(conn);
  const events = eventsByTask(conn);
  const byTitle = new Map(tasks.map((t) => [t.title, t]));
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const t of tasks) {
    const p = chainProblem(t, events.get(t.id) ?? []);
    if (p !== null) problems.push(p);
  }
  const comments = new Map(
    (
      conn.prepare('SELECT id, task_id, body FROM task_comments').all() as Array<{
        id: string;
        task_id: string;
        body: string;
      }>
    ).map((c) => [c.body, c]),
  );
  ledger.writes.forEach((w, i) => {
    if (w.kind === 'task') {
      const row = byTitle.get(w.marker);
      const idOk = w.acked === undefined || w.acked['id'] === row?.id;
      if (row !== undefined && idOk && row.parent_task_id === w.sent['parent']) whole.add(i);
    } else if (w.kind === 'comment') {
      const c = comments.get(w.marker);
      const idOk = w.acked === undefined || w.acked['id'] === c?.id;
      if (c !== undefined && idOk && c.task_id === w.sent['task']) whole.add(i);
    } else if (w.kind === 'claim') {
      const id = String(w.sent['task']);
      const claimed = (events.get(id) ?? []).some(
        (e) => e.to_status === 'in_progress' && e.reason === 'claim' && e.actor === CLAIMER,
      );
      const row = byId.get(id);
      if (claimed && row?.status === 'in_progress' && row.assignee_agent_id === CLAIMER)
        whole.add(i);
    }
  });
  return { problems, whole };
}

const DELEGATION_NOTE = /^Delegated by .+ to (.+) \(team_delegate\)\.$/;

/**
 * A delegation is a task assigned to the teammate, its "Delegated by" comment and its
 * `task_created` audit row: every task a delegation made must have all three.
 */
export function checkDelegations(conn: Db, ledger: Ledger): Findings {
  const problems: string[] = [];
  const whole = new Set<number>();
  const tasks = loadTasks(conn).filter((t) => t.title.startsWith('deleg '));
  const noted = new Set(
    (
      conn.prepare('SELECT task_id, body FROM task_comments').all() as Array<{
        task_id: string;
        body: string;
      }>
    )
      .filter((c) => DELEGATION_NOTE.exec(c.body)?.[1] === TEAMMATE)
      .map((c) => c.task_id),
  );
  const audited = new Set(
    (
      conn
        .prepare(
          "SELECT detail FROM audit_log WHERE tool = 'team_delegate' AND outcome = 'task_created'",
        )
        .all() as Array<{ detail: string }>
    ).map((r) => String((JSON.parse(r.detail) as { taskId?: unknown }).taskId)),
  );
  const complete = new Map<string, TaskRow>();
  for (const t of tasks) {
    const missing = [
      ...(t.status === 'in_progress' && t.assignee_agent_id === TEAMMATE ? [] : ['assignment']),
      ...(noted.has(t.id) ? [] : ['delegation comment']),
      ...(audited.has(t.id) ? [] : ['audit row']),
    ];
    if (missing.length === 0) complete.set(t.title, t);
    else
      problems.push(
        `half-written delegation: task ${t.id} (${t.title}) lacks ${missing.join(', ')}`,
      );
  }
  ledger.writes.forEach((w, i) => {
    if (w.kind !== 'delegation') return;
    const t = complete.get(`deleg ${w.marker}`);
    const idOk = w.acked === undefined || w.acked['taskId'] === t?.id;
    if (t !== undefined && idOk) whole.add(i);
  });
  return { problems, whole };
}
