// Query classification, deterministic: the intent of intent_search (WHY, WHEN, ENTITY, WHAT)
// and memory_retrieve's route (timeline, causal, discovery, complex, hybrid). Each answer says
// which cue decided it, so a tool can report why it routed the way it did.
import { planClauses } from './plan.js';

export const INTENTS = ['WHY', 'WHEN', 'ENTITY', 'WHAT'] as const;
export type Intent = (typeof INTENTS)[number];

export interface Classified<T extends string> {
  readonly value: T;
  /** The cue that decided it (a matched phrase, or "default"). */
  readonly cue: string;
}

const WHY =
  /\b(why|what caused|what led to|reason(s)? (for|why|behind)|because of what|how come|rationale|motivat\w*)\b/;
const WHEN =
  /\b(when|what (date|day|time|year|month)|how long ago|since when|before|after|timeline|yesterday|last (week|month|session|time))\b/;
const ENTITY =
  /\b(who|whom|whose|which (person|team|service|project|company|tool)|what is [A-Z]\w*|tell me about)\b/;

/** WHY for causes, WHEN for time, ENTITY for people and named things, else WHAT. */
export function classifyIntent(query: string): Classified<Intent> {
  const lower = query.toLowerCase();
  const why = WHY.exec(lower);
  if (why !== null) return { value: 'WHY', cue: why[0] };
  const when = WHEN.exec(lower);
  if (when !== null) return { value: 'WHEN', cue: when[0] };
  // ENTITY looks at the original case for "what is Foo"; the rest on lower case.
  const entity = ENTITY.exec(query) ?? ENTITY.exec(lower);
  if (entity !== null) return { value: 'ENTITY', cue: entity[0] };
  return { value: 'WHAT', cue: 'default' };
}

export const ROUTES = ['timeline', 'causal', 'discovery', 'complex', 'hybrid'] as const;
export type Route = (typeof ROUTES)[number];

const TIMELINE =
  /\b(last session|previous session|yesterday|earlier today|this (morning|week)|left off|what did (i|we) (do|work on)|session history|recent sessions?)\b/;
const CAUSAL =
  /\b(why did (we|i|you|they)|what caused|what led to|reason (for|behind)|why (is|was|were|are|do|does))\b/;
const DISCOVERY =
  /\b(similar to|related to|like the|documents? about the same|more like|see also)\b/;

/** memory_retrieve's automatic route for `query` (mode "auto"). */
export function classifyRoute(query: string): Classified<Route> {
  const lower = query.toLowerCase();
  for (const [route, re] of [
    ['timeline', TIMELINE],
    ['causal', CAUSAL],
    ['discovery', DISCOVERY],
  ] as const) {
    const m = re.exec(lower);
    if (m !== null) return { value: route, cue: m[0] };
  }
  const clauses = planClauses(query);
  if (clauses.length > 1) return { value: 'complex', cue: `${clauses.length} topics` };
  return { value: 'hybrid', cue: 'default' };
}
