// Recency for vault scoring: half-lives by content type (a handoff is stale in a month, a
// decision holds for half a year, a preference never decays), the decay itself, and the
// recency-intent detector that switches a raw-scored route to the composite regime.

/** Content types of vault documents (frontmatter `type`, else inferred from the path). */
export const CONTENT_TYPES = [
  'decision',
  'handoff',
  'progress',
  'observation',
  'session',
  'note',
  'research',
  'deduction',
  'reference',
  'preference',
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Days for a document's recency to halve, by content type; Infinity never decays. */
export const RECENCY_HALF_LIFE_DAYS: Readonly<Record<ContentType, number>> = {
  handoff: 30,
  progress: 30,
  session: 30,
  observation: 45,
  note: 60,
  research: 90,
  deduction: 120,
  decision: 180,
  reference: 365,
  preference: Number.POSITIVE_INFINITY,
};

const DAY_MS = 86_400_000;

/** Whole and fractional days from `at` to `now` (0 for a future date). */
export function ageDays(at: number, now: number): number {
  return Math.max(0, (now - at) / DAY_MS);
}

/** The half-life of `type`; an unknown type decays like a note. */
export function halfLifeDays(type: string): number {
  return RECENCY_HALF_LIFE_DAYS[type as ContentType] ?? RECENCY_HALF_LIFE_DAYS.note;
}

/** Recency in (0, 1]: 0.5^(age / half-life); 1 for a type that never decays or a future date. */
export function recencyScore(type: string, effectiveAt: number, now: number): number {
  const half = halfLifeDays(type);
  if (!Number.isFinite(half)) return 1;
  return 0.5 ** (ageDays(effectiveAt, now) / half);
}

// Words and phrases that ask for what is new rather than what matches best. Whole words only:
// "lately" yes, "latency" no.
const RECENCY_PATTERNS: readonly RegExp[] = [
  /\b(latest|newest|most recent(ly)?|recent(ly)?|lately)\b/,
  /\b(yesterday|today|tonight|this (morning|afternoon|evening|week|month))\b/,
  /\b(last|previous|prior) (session|time|week|night|month|meeting|conversation)\b/,
  /\b(left off|just now|just (did|changed|added|wrote)|a moment ago|earlier today)\b/,
  /\bwhat('s| is| was) new\b/,
];

/** Whether `query` asks for recent material ("latest…", "yesterday…", "where we left off"). */
export function isRecencyQuery(query: string): boolean {
  const q = query.toLowerCase();
  return RECENCY_PATTERNS.some((p) => p.test(q));
}
