// The extractive summary of a session, without a language model: what it was for and came to,
// the tools it used (calls, failures), its distinct errors, the files it touched, its
// delegations, what is left open and the observations recorded in it. Pure and deterministic:
// the same records give the same summary and the same hash. Bounded everywhere.
import { createHash } from 'node:crypto';

import type { Observation } from '../observations/model.js';
import type {
  Delegation,
  Session,
  SessionSummary,
  SummaryDelegation,
  SummaryError,
  ToolCall,
  ToolUse,
} from './model.js';

export const MAX_ERRORS = 10;
export const MAX_FILES = 50;
export const MAX_SUMMARY_DELEGATIONS = 50;
export const MAX_SUMMARY_OBSERVATIONS = 50;
const MAX_LINE = 300;
const MAX_PROSE = 1000;
const MAX_PATH = 1000;

/** What a summary is built from (read by summarize.ts). */
export interface SummaryInputs {
  session: Session;
  /** The session's tool calls in order (the first ones, when there are very many). */
  toolCalls: readonly ToolCall[];
  delegations: readonly Delegation[];
  /** The child sessions, by id. */
  children: ReadonlyMap<string, Session>;
  /** Observations recorded in the session, oldest first, its own summaries left out. */
  observations: readonly Observation[];
  /** How many such observations there are in all. */
  observationCount: number;
}

const cut = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);
const firstLine = (s: string): string => cut((s.trim().split('\n', 1)[0] ?? '').trim(), MAX_LINE);
/** A free text on one line (so no text can pose as a section of the summary), bounded. */
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() !== '' ? cut(v.trim().replace(/\s+/g, ' '), max) : null;

/** Tools by calls (most first, then by name), with their failures. */
function toolUses(calls: readonly ToolCall[]): ToolUse[] {
  const uses = new Map<string, ToolUse>();
  for (const c of calls) {
    const use = uses.get(c.toolName) ?? { name: c.toolName, calls: 0, failures: 0 };
    use.calls += 1;
    if (c.status === 'error') use.failures += 1;
    uses.set(c.toolName, use);
  }
  return [...uses.values()].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
}

/** Distinct errors (same tool, same first line) in the order they first came. */
function distinctErrors(calls: readonly ToolCall[]): SummaryError[] {
  const seen = new Map<string, SummaryError>();
  for (const c of calls) {
    if (c.status !== 'error') continue;
    const error =
      c.error === null || c.error.trim() === '' ? '(no error text)' : firstLine(c.error);
    const key = JSON.stringify([c.toolName, error]);
    const known = seen.get(key);
    if (known === undefined) seen.set(key, { tool: c.toolName, error, count: 1, firstSeq: c.seq });
    else known.count += 1;
  }
  return [...seen.values()];
}

/** Failed calls no later call of the same tool succeeded after: still open. */
function unresolvedFailures(calls: readonly ToolCall[]): string[] {
  const last = new Map<string, ToolCall>();
  for (const c of calls) last.set(c.toolName, c);
  return [...last.values()]
    .filter((c) => c.status === 'error')
    .sort((a, b) => a.seq - b.seq)
    .map(
      (c) =>
        `${c.toolName} failed (call ${c.seq})${c.error === null ? '' : `: ${firstLine(c.error)}`} — not retried successfully`,
    );
}

/** The non-empty texts of a list, each on one line. */
const texts = (list: readonly unknown[], max: number): string[] =>
  list.flatMap((x) => {
    const t = text(x, max);
    return t === null ? [] : [t];
  });

function openItems(session: Session, calls: readonly ToolCall[]): string[] {
  const listed = session.data['open_items'];
  const own = Array.isArray(listed) ? texts(listed, MAX_LINE) : [];
  return [...own, ...unresolvedFailures(calls)];
}

function delegationsOf(inputs: SummaryInputs): SummaryDelegation[] {
  return inputs.delegations.slice(0, MAX_SUMMARY_DELEGATIONS).map((d) => ({
    childSessionId: d.childSessionId,
    agentType: d.agentType,
    task: d.task === null ? null : firstLine(d.task),
    status: d.status,
    childStatus: inputs.children.get(d.childSessionId)?.status ?? null,
  }));
}

/** The session's summary. Pure. */
export function buildSummary(inputs: SummaryInputs): SessionSummary {
  const { session: s, toolCalls: calls } = inputs;
  const errors = distinctErrors(calls);
  const files = [...new Set(calls.flatMap((c) => texts(c.files, MAX_PATH)))];
  const goal = text(s.data['goal'], MAX_PROSE);
  const who = [s.agentType, s.agentProgram, s.modelId].filter((x): x is string => x !== null);
  const shownObservations = inputs.observations.slice(0, MAX_SUMMARY_OBSERVATIONS);
  return {
    sessionId: s.id,
    title: text(s.title, MAX_LINE) ?? (goal === null ? `Session ${s.id}` : cut(goal, MAX_LINE)),
    goal,
    outcome: text(s.data['outcome'], MAX_PROSE),
    status: s.status,
    agent: who.length === 0 ? null : who.join(' / '),
    repository: s.projectId ?? s.repoPath ?? s.repoId,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    durationMs: Math.max(0, (s.endedAt ?? s.updatedAt) - s.startedAt),
    toolCalls: s.counts.toolCalls,
    failedCalls: s.counts.errors,
    callsRead: calls.length,
    tools: toolUses(calls),
    errors: errors.slice(0, MAX_ERRORS),
    errorsOmitted: Math.max(0, errors.length - MAX_ERRORS),
    files: files.slice(0, MAX_FILES),
    filesOmitted: Math.max(0, files.length - MAX_FILES),
    delegations: delegationsOf(inputs),
    delegationsOmitted: Math.max(0, s.counts.delegations - MAX_SUMMARY_DELEGATIONS),
    openItems: openItems(s, calls),
    observations: shownObservations.map((o) => ({
      id: o.id,
      type: o.type,
      title: text(o.title, MAX_LINE) ?? '(untitled)',
    })),
    observationsOmitted: Math.max(0, inputs.observationCount - shownObservations.length),
  };
}

/** sha256 of a summary: equal when nothing it was built from changed. */
export function summaryHash(summary: SessionSummary): string {
  return createHash('sha256').update(JSON.stringify(summary)).digest('hex');
}

/** The idempotency key of a session's summary memory (one live summary per session). */
export const summaryKey = (sessionId: string): string => `session-summary:${sessionId}`;
