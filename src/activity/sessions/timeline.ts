// A session's timeline: its tool calls, delegations and observations merged in time order
// (ties keep that order, and each list its own). Pure; the records stay in their lists.
import type { Observation } from '../observations/model.js';
import type { Delegation, TimelineEntry, ToolCall } from './model.js';

const RANK: Readonly<Record<TimelineEntry['kind'], number>> = {
  tool_call: 0,
  delegation: 1,
  observation: 2,
};

/** Entries (kind, id, time) of every record given, oldest first. */
export function mergeTimeline(
  toolCalls: readonly ToolCall[],
  delegations: readonly Delegation[],
  observations: readonly Observation[],
): TimelineEntry[] {
  const entries: (TimelineEntry & { order: number })[] = [
    ...toolCalls.map((c) => ({
      kind: 'tool_call' as const,
      id: c.id,
      at: c.createdAt,
      order: c.seq,
    })),
    ...delegations.map((d) => ({
      kind: 'delegation' as const,
      id: d.id,
      at: d.createdAt,
      order: d.seq,
    })),
    ...observations.map((o, i) => ({
      kind: 'observation' as const,
      id: o.id,
      at: Date.parse(o.observedAt),
      order: i,
    })),
  ];
  entries.sort((a, b) => a.at - b.at || RANK[a.kind] - RANK[b.kind] || a.order - b.order);
  return entries.map(({ kind, id, at }) => ({ kind, id, at }));
}
