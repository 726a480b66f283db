// A session summary as the text its `session` memory stores: one section per part, each saying
// "none" when empty and how much was left out when bounded. Pure; the same summary, the same text.
import type { SessionSummary } from './model.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** `1h 2m 3s`, `4m 0s`, `12s`. */
export function durationText(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (h > 0) return `${h}h ${m}m ${sec}s`;
  return m > 0 ? `${m}m ${sec}s` : `${sec}s`;
}

const more = (n: number, what: string): string[] => (n > 0 ? [`- … and ${n} more ${what}`] : []);

function section(title: string, lines: readonly string[], omitted: string[] = []): string[] {
  return lines.length === 0 ? [`${title}: none`] : [`${title}:`, ...lines, ...omitted];
}

function headLines(s: SessionSummary): string[] {
  const span =
    s.endedAt === null
      ? `open, ${durationText(s.durationMs)} so far (started ${iso(s.startedAt)})`
      : `${durationText(s.durationMs)} (${iso(s.startedAt)} → ${iso(s.endedAt)})`;
  const lines = [
    `Session ${s.sessionId}: ${s.title}`,
    `Status: ${s.status}, ${span}`,
    `Agent: ${s.agent ?? 'unknown'}; repository: ${s.repository ?? 'none'}`,
  ];
  if (s.goal !== null) lines.push(`Goal: ${s.goal}`);
  if (s.outcome !== null) lines.push(`Outcome: ${s.outcome}`);
  return lines;
}

function toolLines(s: SessionSummary): string[] {
  const read = s.callsRead < s.toolCalls ? `; the first ${s.callsRead} read` : '';
  const head = `Tools (${s.toolCalls} calls, ${s.failedCalls} failed${read})`;
  const uses = s.tools.map(
    (t) => `- ${t.name}: ${t.calls} call${t.calls === 1 ? '' : 's'}, ${t.failures} failed`,
  );
  return section(head, uses);
}

/** The summary's text. */
export function summaryText(s: SessionSummary): string {
  const errors = s.errors.map(
    (e) => `- ${e.tool} (call ${e.firstSeq}${e.count > 1 ? `, ${e.count} times` : ''}): ${e.error}`,
  );
  const delegations = s.delegations.map(
    (d) =>
      `- ${d.childSessionId} [${d.status}]${d.agentType === null ? '' : ` ${d.agentType}`}${d.task === null ? '' : `: ${d.task}`}${d.childStatus === null ? '' : ` (child ${d.childStatus})`}`,
  );
  const observations = s.observations.map((o) => `- ${o.type}: ${o.title} (${o.id})`);
  return [
    ...headLines(s),
    ...toolLines(s),
    ...section('Errors', errors, more(s.errorsOmitted, 'distinct errors')),
    ...section(
      'Files touched',
      s.files.map((f) => `- ${f}`),
      more(s.filesOmitted, 'files'),
    ),
    ...section('Delegations', delegations, more(s.delegationsOmitted, 'delegations')),
    ...section(
      'Open items',
      s.openItems.map((i) => `- ${i}`),
    ),
    ...section('Observations', observations, more(s.observationsOmitted, 'observations')),
  ].join('\n');
}
