// Broker checks of a crashed file: every note has its audited call, every approval its
// `pending` audit row, every decision its `decision` row, no gated call executed without an
// allowed approval, and each acknowledged gated call has its whole trail.
import type { Ledger } from './ledger.js';
import type { Db, Findings } from './verify.js';
import { DECIDER } from './writers.js';

interface AuditRow {
  call_id: string | null;
  tool: string;
  step: string;
  outcome: string;
  detail: string;
}

interface ApprovalRow {
  id: string;
  call_id: string;
  args: string;
  status: string;
  decision: string | null;
  decided_by: string | null;
}

const approvalIdOf = (detail: string): string | undefined => {
  const id = (JSON.parse(detail) as { approvalId?: unknown } | null)?.approvalId;
  return typeof id === 'string' ? id : undefined;
};

const pathOf = (args: string): string => {
  const path = (JSON.parse(args) as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : '';
};

/** Notes: each acknowledged one kept, and no more notes than audited note executions. */
export function checkNotes(conn: Db, ledger: Ledger): Findings {
  const problems: string[] = [];
  const whole = new Set<number>();
  const notes = new Map(
    (
      conn.prepare('SELECT id, note FROM tool_notes').all() as Array<{ id: string; note: string }>
    ).map((n) => [n.note, n]),
  );
  const audited = conn
    .prepare(
      "SELECT COUNT(DISTINCT call_id) AS n FROM audit_log WHERE tool = 'note' AND step = 'execution' AND outcome = 'ok'",
    )
    .get() as { n: number };
  if (notes.size > audited.n)
    problems.push(`${notes.size - audited.n} of ${notes.size} notes have no audited execution`);
  ledger.writes.forEach((w, i) => {
    if (w.kind !== 'note') return;
    const n = notes.get(w.marker);
    if (n !== undefined && (w.acked === undefined || w.acked['id'] === n.id)) whole.add(i);
  });
  return { problems, whole };
}

/** The steps an approved, executed delete_path call leaves, in any order. */
const GATED_TRAIL = [
  'approval/pending',
  'decision/allow_once',
  'approval/allowed',
  'execution/ok',
  'result/ok',
];

function trails(audit: readonly AuditRow[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const a of audit) {
    if (a.call_id === null) continue;
    const steps = out.get(a.call_id) ?? new Set<string>();
    steps.add(`${a.step}/${a.outcome}`);
    out.set(a.call_id, steps);
  }
  return out;
}

/** Approval rows against their audit rows, and the ledger's decisions and gated calls. */
export function checkApprovals(conn: Db, ledger: Ledger): Findings {
  const problems: string[] = [];
  const whole = new Set<number>();
  const approvals = new Map(
    (
      conn
        .prepare('SELECT id, call_id, args, status, decision, decided_by FROM tool_approvals')
        .all() as ApprovalRow[]
    ).map((a) => [a.id, a]),
  );
  const audit = conn
    .prepare(
      "SELECT call_id, tool, step, outcome, detail FROM audit_log WHERE tool = 'delete_path'",
    )
    .all() as AuditRow[];
  const opened = new Set<string>();
  const decided = new Set<string>();
  for (const a of audit) {
    const id = approvalIdOf(a.detail);
    if (id === undefined) continue;
    if (a.step === 'approval' && a.outcome === 'pending') opened.add(id);
    if (a.step === 'decision') decided.add(id);
  }
  for (const a of approvals.values()) {
    if (!opened.has(a.id)) problems.push(`approval ${a.id} has no pending audit row`);
    if (a.decision !== null && !decided.has(a.id))
      problems.push(`approval ${a.id} was decided (${a.decision}) without a decision audit row`);
  }
  for (const id of decided) {
    if (approvals.get(id)?.decision == null)
      problems.push(`decision audited for undecided approval ${id}`);
  }
  const byCall = trails(audit);
  const byPath = new Map([...approvals.values()].map((a) => [pathOf(a.args), a]));
  const allowedCalls = new Set(
    [...approvals.values()].filter((a) => a.status === 'allowed').map((a) => a.call_id),
  );
  for (const [callId, steps] of byCall) {
    if (steps.has('execution/ok') && (!steps.has('approval/allowed') || !allowedCalls.has(callId)))
      problems.push(`delete_path call ${callId} executed without an allowed approval`);
  }
  ledger.writes.forEach((w, i) => {
    if (w.kind === 'decision') {
      const a = approvals.get(w.marker);
      if (a?.decision === 'allow_once' && a.decided_by === DECIDER && decided.has(a.id))
        whole.add(i);
    } else if (w.kind === 'gated_call') {
      const a = byPath.get(`/crash/${w.marker}`);
      const steps = a === undefined ? undefined : byCall.get(a.call_id);
      if (a?.status === 'allowed' && GATED_TRAIL.every((s) => steps?.has(s) === true)) whole.add(i);
      else if (w.acked !== undefined)
        problems.push(
          `acknowledged delete_path ${w.marker}: approval ${a?.id ?? 'missing'} is ${a?.status}, trail ${[...(steps ?? [])].join(' ')}`,
        );
    }
  });
  return { problems, whole };
}
