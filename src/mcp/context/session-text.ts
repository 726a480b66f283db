// Readable summaries of the session and agent families' answers (structuredContent holds all).
import type {
  DelegationLogged,
  Session,
  SessionDetail,
  SessionList,
  ToolCall,
} from '../../activity/sessions/index.js';

const SHOWN = 30;
const iso = (ms: number | null): string => (ms === null ? 'open' : new Date(ms).toISOString());

export function sessionLine(s: Session): string {
  const who = [s.agentType, s.agentProgram, s.modelId].filter((x) => x !== null).join(' / ');
  const where = s.projectId ?? s.repoPath ?? s.repoId ?? 'no repository';
  const c = s.counts;
  return `- ${s.id} [${s.status}]${s.title === null ? '' : ` ${s.title}`} (${who || 'unknown agent'}; ${where}) started ${iso(s.startedAt)}, ${c.toolCalls} tool calls, ${c.errors} errors, ${c.delegations} delegations${s.parentSessionId === null ? '' : `; delegated by ${s.parentSessionId}`}`;
}

export function startedText(s: Session): string {
  return `Started session ${s.id} [${s.status}].\n${sessionLine(s)}`;
}

export function updatedText(s: Session, changed: readonly string[]): string {
  const what = changed.length === 0 ? 'nothing changed' : `changed ${changed.join(', ')}`;
  const end = s.endedAt === null ? '' : `; ended ${iso(s.endedAt)}`;
  return `Session ${s.id} [${s.status}]: ${what}${end}.`;
}

export function listText(l: SessionList): string {
  return [l.message, ...l.sessions.map(sessionLine)].join('\n');
}

function callLine(c: ToolCall): string {
  const files = c.files.length === 0 ? '' : ` files: ${c.files.slice(0, 5).join(', ')}`;
  const err = c.error === null ? '' : ` — ${c.error.split('\n', 1)[0] ?? ''}`;
  return `  ${c.seq}. ${c.toolName} [${c.status}]${err}${files}`;
}

export function detailText(d: SessionDetail): string {
  const lines = [sessionLine(d.session)];
  if (d.toolCalls.length > 0)
    lines.push('Tool calls:', ...d.toolCalls.slice(0, SHOWN).map(callLine));
  if (d.toolCalls.length > SHOWN) lines.push(`  … and ${d.toolCalls.length - SHOWN} more`);
  if (d.delegations.length > 0) {
    lines.push(
      'Delegations:',
      ...d.delegations.map(
        (x) =>
          `  ${x.seq}. → ${x.childSessionId} [${x.status}]${x.task === null ? '' : ` ${x.task}`}`,
      ),
    );
  }
  if (d.truncated) lines.push('(activity cut at `limit`)');
  return lines.join('\n');
}

export function toolCallText(c: ToolCall, s: Session): string {
  return `Logged tool call ${c.seq} of session ${s.id}: ${c.toolName} [${c.status}]${c.files.length === 0 ? '' : `, files ${c.files.join(', ')}`}. The session has ${s.counts.toolCalls} tool calls, ${s.counts.errors} errors.`;
}

export function delegationText(d: DelegationLogged): string {
  const how = d.childCreated ? 'created child session' : 'linked existing session';
  const again = d.updated ? ' (delegation logged before: status updated)' : '';
  return `Delegation ${d.delegation.seq} of ${d.delegation.parentSessionId}: ${how} ${d.child.id} [${d.child.status}], delegation ${d.delegation.status}${again}.`;
}
