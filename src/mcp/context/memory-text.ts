// The readable text of the memory family's answers (and search_memory's): the honest status
// first (found, nothing stored, filtered out, no match), then one line per observation. The
// whole answer is in structuredContent; this is what a model reads first.
import type {
  InjectedContext,
  MemorySearchResult,
  Observation,
  ObservationList,
  ObservationTimeline,
  StoredObservation,
} from '../../activity/observations/index.js';

const HEADLINE: Readonly<Record<string, string>> = {
  ok: 'Found',
  empty: 'EMPTY',
  filtered_out: 'FILTERED OUT',
  no_match: 'NO MATCH',
  below_min_score: 'ALL BELOW min_score',
  anchor_only: 'ANCHOR ONLY',
};

const SNIPPET = 200;
const oneLine = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= SNIPPET ? flat : `${flat.slice(0, SNIPPET)}…`;
};

/** One observation as a line: time, type, title, id, then its content shortened. */
function line(o: Observation, mark = '-'): string {
  const session = o.sessionId === null ? '' : ` session ${o.sessionId}`;
  const tags = o.tags.length === 0 ? '' : ` [${o.tags.join(', ')}]`;
  return `${mark} ${o.observedAt} ${o.type}: ${o.title} (id ${o.id}${session})${tags}\n    ${oneLine(o.content)}`;
}

export function storedText(s: StoredObservation): string {
  const o = s.observation;
  const what = s.deduplicated
    ? `Already stored (same key and content): ${o.id}`
    : s.replaced === null
      ? `Stored ${o.type} ${o.id}`
      : `Stored ${o.type} ${o.id}, replacing ${s.replaced} (same key)`;
  return `${what}\n${line(o)}`;
}

export function gotText(g: {
  observations: Observation[];
  missing: string[];
  otherType: string[];
}): string {
  const head = `Found ${g.observations.length} of ${g.observations.length + g.missing.length + g.otherType.length}`;
  return [
    head,
    ...g.observations.map((o) => line(o)),
    ...(g.missing.length === 0 ? [] : [`Not found: ${g.missing.join(', ')}`]),
    ...(g.otherType.length === 0 ? [] : [`Of another type: ${g.otherType.join(', ')}`]),
  ].join('\n');
}

export function listText(l: ObservationList): string {
  const more = l.truncated
    ? [`(${l.matching - l.observations.length} more: raise limit or narrow)`]
    : [];
  return [
    `${HEADLINE[l.status] ?? l.status}: ${l.message}`,
    ...l.observations.map((o) => line(o)),
    ...more,
  ].join('\n');
}

export function timelineText(t: ObservationTimeline): string {
  const window = t.window === null ? '' : ` (window ${t.window.from} – ${t.window.to})`;
  return [
    `${HEADLINE[t.status] ?? t.status}: ${t.message}${window}`,
    ...t.before.map((o) => line(o)),
    ...(t.anchor === null ? [] : [line(t.anchor, '>')]),
    ...t.after.map((o) => line(o)),
  ].join('\n');
}

/** The block itself (within the budget, its last line on what was left out), or why it is empty. */
export function injectText(i: InjectedContext): string {
  return i.block === '' ? `NOTHING INJECTED: ${i.message}` : i.block;
}

export function searchMemoryText(r: MemorySearchResult): string {
  const degraded = r.degraded ? ` (${r.degradedReason ?? 'degraded'})` : '';
  return [
    `${HEADLINE[r.status] ?? r.status}: ${r.message}${degraded}`,
    ...r.results.map((h, i) => {
      const what = h.type === null ? h.kind : `${h.kind} ${h.type}`;
      const session = h.sessionId === null ? '' : ` session ${h.sessionId}`;
      return `${i + 1}. ${h.title} (${what}, id ${h.id}${session}) score ${h.score} ${h.scoreBasis}\n    ${oneLine(h.snippet)}`;
    }),
  ].join('\n');
}
