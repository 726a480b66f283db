// Detections, sentinels and the merge-then-replace step. Offsets are UTF-16 code-unit
// indexes into the original text, as String#slice and RegExp#index use them.

/** One detector's hit. Higher `priority` names the kind when hits overlap. */
export interface Detection {
  kind: string;
  start: number;
  end: number;
  priority: number;
}

/** Priorities: a known token format beats a context match (`KEY=…`) on the same span. */
export const PRIORITY = { format: 3, context: 2, assignment: 1 } as const;

/** Matches one redaction sentinel, e.g. `[REDACTED:aws-access-key]`; group 1 is the kind. */
export const SENTINEL_PATTERN = /\[REDACTED:([a-z0-9]+(?:-[a-z0-9]+)*)\]/;

/** Global form for replace/matchAll (both reset or clone it, so sharing it is stateless). */
const SENTINELS = new RegExp(SENTINEL_PATTERN.source, 'g');

/** The kinds of the sentinels in `text`, in order. */
export function sentinelKinds(text: string): string[] {
  return [...text.matchAll(SENTINELS)].map((m) => m[1] ?? '');
}

/** The sentinel that replaces a secret of `kind`. */
export function sentinel(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * True when `text` holds at least one sentinel and nothing else but whitespace, punctuation
 * and symbols: no letter or digit of real content survived.
 */
export function isOnlySentinels(text: string): boolean {
  const rest = text.replace(SENTINELS, '');
  return rest.length < text.length && !/[\p{L}\p{N}]/u.test(rest);
}

/**
 * Merges overlapping detections into disjoint spans, sorted by start. A merged span takes
 * the kind of its highest-priority member (the longer one on a tie).
 */
export function mergeDetections(detections: readonly Detection[]): Detection[] {
  const sorted = detections
    .filter((d) => d.end > d.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Detection[] = [];
  for (const d of sorted) {
    const last = merged.at(-1);
    if (last === undefined || d.start >= last.end) {
      merged.push({ ...d });
      continue;
    }
    const wins =
      d.priority > last.priority ||
      (d.priority === last.priority && d.end - d.start > last.end - last.start);
    if (wins) {
      last.kind = d.kind;
      last.priority = d.priority;
    }
    last.end = Math.max(last.end, d.end);
  }
  return merged;
}

/** Replaces each disjoint, sorted span with its sentinel in one pass over the original. */
export function replaceSpans(text: string, spans: readonly Detection[]): string {
  const parts: string[] = [];
  let pos = 0;
  for (const span of spans) {
    parts.push(text.slice(pos, span.start), sentinel(span.kind));
    pos = span.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}
