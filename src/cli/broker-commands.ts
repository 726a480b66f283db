// `cairn approvals list|show|approve|deny|grants|revoke` and `cairn audit`: the human side of
// the tool broker. They open the same database a running server uses (never creating one) and
// call the broker directly. Flags and help come from the command table (command-table.ts).
import {
  type Approval,
  approvalListInput,
  type AuditEntry,
  auditQueryInput,
  type Broker,
  type Grant,
  grantListInput,
} from '../broker/index.js';
import { isoTime, isoTimes } from '../shared/index.js';
import { UsageError } from './args.js';
import { openReaderCore } from './database.js';

const out = (text: string): void => void process.stdout.write(text);

const APPROVALS_USAGE =
  'usage: cairn approvals list [--status pending|allowed|denied|expired|cancelled|all] [--limit N] [--json]\n' +
  '       cairn approvals show <id> | approve <id> [--always [--expires 7d|ISO|ms]] | deny <id>   [--db PATH] [--by NAME]\n' +
  '       cairn approvals grants [--status active|expired|revoked|all] [--principal P] [--tool T] [--json]\n' +
  '       cairn approvals revoke <grant-id> [--by NAME]';

async function withBroker<T>(db: string | undefined, fn: (b: Broker) => Promise<T>): Promise<T> {
  const core = await openReaderCore(db);
  try {
    return await fn(core.broker);
  } finally {
    await core.close();
  }
}

const oneLine = (v: unknown, max = 60): string => {
  const text = JSON.stringify(v) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** The board task a call works for, first 8 characters (as the dashboard shows it), or `-`. */
const shortTask = (taskId: string | null): string => (taskId ?? '-').slice(0, 8).padEnd(8);

/** id, status, tool, task, caller, expiry or decision, arguments. */
function approvalLine(a: Approval): string {
  const left = Math.max(0, Math.round((a.expiresAt - Date.now()) / 1000));
  const when =
    a.status === 'pending'
      ? `expires in ${left}s`
      : a.status === 'cancelled'
        ? `cancelled: ${a.cancelReason ?? 'request cancelled'}`
        : (a.decision ?? a.status);
  return `${a.id}  ${a.status.padEnd(9)} ${a.tool.padEnd(12)} ${shortTask(a.taskId)}  ${a.caller}  ${when}  ${oneLine(a.args)}\n`;
}

/** The flags `cairn approvals <action>` may get (each action takes some of them). */
export interface ApprovalsFlags {
  db?: string | undefined;
  always?: boolean | undefined;
  by?: string | undefined;
  status?: string | undefined;
  limit?: string | undefined;
  json?: boolean | undefined;
  expires?: string | undefined;
  principal?: string | undefined;
  tool?: string | undefined;
}

/** `cairn approvals …`: see and decide pending tool calls. */
export async function approvals(
  positionals: readonly string[],
  values: ApprovalsFlags,
): Promise<void> {
  const [action, id] = positionals;
  const by = values.by ?? `cli:${process.env['USER'] ?? 'human'}`;
  if (action === 'grants') return grants(values);
  if (action === 'revoke' && id !== undefined) {
    const g = await withBroker(values.db, (b) => b.revokeGrant(id, by));
    return out(`${g.id} revoked · ${g.tool} for ${g.principal}\n`);
  }
  if (action === 'list') {
    const q = approvalListInput.safeParse({ status: values.status, limit: values.limit });
    if (!q.success) throw new UsageError(`${q.error.issues[0]?.message ?? ''}\n${APPROVALS_USAGE}`);
    const status = q.data.status === 'all' ? undefined : q.data.status;
    const rows = await withBroker(values.db, (b) =>
      b.listApprovals({ status, limit: q.data.limit }),
    );
    if (values.json === true) return out(`${JSON.stringify(isoTimes(rows), null, 2)}\n`);
    return out(rows.length === 0 ? 'no approvals\n' : rows.map(approvalLine).join(''));
  }
  if (id === undefined || !['show', 'approve', 'deny'].includes(action ?? '')) {
    throw new UsageError(APPROVALS_USAGE);
  }
  if (action === 'show') {
    const a = await withBroker(values.db, (b) => b.getApproval(id));
    return out(`${JSON.stringify(isoTimes(a), null, 2)}\n`);
  }
  const decision =
    action === 'deny' ? 'deny' : values.always === true ? 'allow_always' : 'allow_once';
  if (values.expires !== undefined && decision !== 'allow_always') {
    throw new UsageError(`--expires only applies to approve --always\n${APPROVALS_USAGE}`);
  }
  const grantExpiresAt = parseExpiry(values.expires);
  const a = await withBroker(values.db, (b) => b.decide(id, decision, by, { grantExpiresAt }));
  out(`${a.id} ${a.status} (${decision}) · ${a.tool} for ${a.caller}\n`);
  if (decision === 'allow_always') {
    const until =
      grantExpiresAt === undefined ? 'until revoked' : `until ${isoTime(grantExpiresAt)}`;
    out(`granted: ${a.tool} for ${a.principal ?? a.caller}, ${until} (cairn approvals grants)\n`);
  }
}

/** id, status, tool, principal, expiry, who granted it and when. */
function grantLine(g: Grant): string {
  const until = g.expiresAt === null ? 'until revoked' : `until ${isoTime(g.expiresAt)}`;
  const end =
    g.revokedAt === null ? '' : `  revoked ${isoTime(g.revokedAt)} by ${g.revokedBy ?? '?'}`;
  return `${g.id}  ${g.status.padEnd(7)} ${g.tool.padEnd(12)} ${g.principal}  ${until}  by ${g.grantedBy} ${isoTime(g.createdAt)}${end}\n`;
}

/** `cairn approvals grants`: the allow_always grants (active ones unless --status says). */
async function grants(values: ApprovalsFlags): Promise<void> {
  const q = grantListInput.safeParse({
    ...{ status: values.status, principal: values.principal, tool: values.tool },
    limit: values.limit,
  });
  if (!q.success) {
    const issue = q.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const rows = await withBroker(values.db, (b) => b.listGrants(q.data));
  if (values.json === true) return out(`${JSON.stringify(isoTimes(rows), null, 2)}\n`);
  return out(rows.length === 0 ? 'no grants\n' : rows.map(grantLine).join(''));
}

/** `--expires`: a duration from now (`30m`, `12h`, `7d`), an ISO date or epoch ms. */
export function parseExpiry(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = timeOf(value, 1, 'mhd');
  if (Number.isNaN(t)) {
    throw new UsageError(
      `--expires must be a duration like 7d, an ISO date or epoch ms, got ${value}`,
    );
  }
  return t;
}

/** Accepts epoch ms, an ISO date, or a relative age like `15m`, `2h`, `7d` (before now). */
export function parseTime(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const t = timeOf(value, -1, 'smhd');
  if (Number.isNaN(t))
    throw new UsageError(`${flag} must be epoch ms, an ISO date or an age like 15m, got ${value}`);
  return t;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Epoch ms, an ISO date, or `<n><unit>` (one of `units`) counted from now in `direction`
 * (+1 ahead, -1 back); NaN when it is none of these.
 */
function timeOf(value: string, direction: 1 | -1, units: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const rel = /^(\d+)([a-z])$/.exec(value);
  const unit = rel !== null && units.includes(rel[2] ?? '') ? UNIT_MS[rel[2] ?? ''] : undefined;
  if (rel !== null && unit !== undefined) return Date.now() + direction * Number(rel[1]) * unit;
  return Date.parse(value);
}

const auditLine = (e: AuditEntry): string =>
  `${isoTime(e.at)}  ${(e.callId ?? '-').slice(0, 8)}  ${e.tool.padEnd(12)} ${e.caller.padEnd(16)} ${e.step.padEnd(12)} ${e.outcome}${e.reason === null ? '' : ` (${e.reason})`}\n`;

export interface AuditFlags {
  db?: string | undefined;
  tool?: string | undefined;
  caller?: string | undefined;
  outcome?: string | undefined;
  step?: string | undefined;
  call?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
  json?: boolean | undefined;
}

/** `cairn audit`: pages through the audit log, newest first. */
export async function audit(values: AuditFlags): Promise<void> {
  const parsed = auditQueryInput.safeParse({
    ...{ tool: values.tool, caller: values.caller, outcome: values.outcome, step: values.step },
    callId: values.call,
    since: parseTime(values.since, '--since'),
    until: parseTime(values.until, '--until'),
    ...{ limit: values.limit, cursor: values.cursor },
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const page = await withBroker(values.db, (b) => b.listAudit(parsed.data));
  if (values.json === true) return out(`${JSON.stringify(isoTimes(page), null, 2)}\n`);
  out(page.entries.length === 0 ? 'no audit entries\n' : page.entries.map(auditLine).join(''));
  if (page.nextCursor !== null) out(`… more: --cursor ${page.nextCursor}\n`);
}
