// Readable summaries of the session and agent families' answers (structuredContent holds all).
import type {
  DelegationLogged,
  Session,
  SessionDetail,
  SessionList,
  SummaryResult,
  TimelineEntry,
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

function timelineLine(d: SessionDetail, e: TimelineEntry): string {
  if (e.kind === 'tool_call') {
    const c = d.toolCalls.find((x) => x.id === e.id);
    return c === undefined ? '' : callLine(c);
  }
  if (e.kind === 'delegation') {
    const x = d.delegations.find((y) => y.id === e.id);
    return x === undefined
      ? ''
      : `  → delegated to ${x.childSessionId} [${x.status}]${x.task === null ? '' : ` ${x.task.split('\n', 1)[0] ?? ''}`}`;
  }
  const o = d.observations.find((y) => y.id === e.id);
  return o === undefined ? '' : `  * ${o.type}: ${o.title} (${o.id})`;
}

export function detailText(d: SessionDetail): string {
  const lines = [sessionLine(d.session)];
  if (d.timeline.length === 0) lines.push('Nothing logged in this session yet.');
  else lines.push('Timeline:', ...d.timeline.slice(0, SHOWN).map((e) => timelineLine(d, e)));
  if (d.timeline.length > SHOWN) lines.push(`  … and ${d.timeline.length - SHOWN} more`);
  if (d.truncated) lines.push('(activity cut at `limit`)');
  lines.push(
    d.summary === null
      ? 'Not summarized (summarize_session writes a summary).'
      : `Summary: memory ${d.summary.id}, ${d.summary.observedAt}.`,
  );
  return lines.join('\n');
}

/** summarize_session's answer: what happened, then the summary itself. */
export function summarizedText(r: SummaryResult): string {
  const what = r.written
    ? `Summarized session ${r.sessionId} into memory ${r.memoryId}${r.replaced === null ? '' : ` (replaces ${r.replaced})`}.`
    : `Session ${r.sessionId} is unchanged since its last summary: memory ${r.memoryId}, not rewritten.`;
  return `${what}\n\n${r.text}`;
}

export function toolCallText(c: ToolCall, s: Session): string {
  return `Logged tool call ${c.seq} of session ${s.id}: ${c.toolName} [${c.status}]${c.files.length === 0 ? '' : `, files ${c.files.join(', ')}`}. The session has ${s.counts.toolCalls} tool calls, ${s.counts.errors} errors.`;
}

export function delegationText(d: DelegationLogged): string {
  const how = d.childCreated ? 'created child session' : 'linked existing session';
  const again = d.updated ? ' (delegation logged before: status updated)' : '';
  return `Delegation ${d.delegation.seq} of ${d.delegation.parentSessionId}: ${how} ${d.child.id} [${d.child.status}], delegation ${d.delegation.status}${again}.`;
}
