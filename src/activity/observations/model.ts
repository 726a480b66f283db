// Observation memory's vocabulary: the spec's memory resources (observation types), the shapes
// the service returns, and the reasons inject_context gives for leaving something out. A model
// file: the dashboard compiles it, so it imports nothing.

/** The spec's memory-family resources, in its order. */
export const OBSERVATION_TYPES = [
  'observation',
  'execution',
  'quality_gate',
  'error_pattern',
  'session',
] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/** How much one type of observation is worth to inject_context, other things equal (0–1). */
export const TYPE_WEIGHTS: Readonly<Record<ObservationType, number>> = {
  error_pattern: 1,
  quality_gate: 0.9,
  session: 0.8,
  execution: 0.7,
  observation: 0.6,
};

/** One stored observation (a memory item of kind `observation`). */
export interface Observation {
  id: string;
  type: ObservationType;
  title: string;
  content: string;
  tags: string[];
  sessionId: string | null;
  projectId: string | null;
  repoId: string | null;
  /** The caller's idempotency key, when it gave one. */
  key: string | null;
  /** Structured extras the caller stored with it (scrubbed like the content). */
  metadata: Record<string, unknown>;
  /** The execution provenance of the write that stored it. */
  provenance: Record<string, unknown>;
  /** When it was stored (ISO 8601): the timeline's order. */
  observedAt: string;
}

/** What `store` did: a new observation, the same one again (key and content unchanged), or a replacement. */
export interface StoredObservation {
  observation: Observation;
  /** True when an observation with the same key and content already existed: nothing written. */
  deduplicated: boolean;
  /** The id of the observation this one replaced (same key, other content), else null. */
  replaced: string | null;
}

/**
 * Why a list holds what it holds: `ok`; `empty` (no observation stored at all); `filtered_out`
 * (observations exist, the filters admit none); `no_match` (the filters admit some, the query
 * matched none of them).
 */
export type ListStatus = 'ok' | 'empty' | 'filtered_out' | 'no_match';

export interface ObservationList {
  status: ListStatus;
  /** One sentence saying what was found, or why nothing was. */
  message: string;
  /** Newest first; by relevance when a query was given. */
  observations: Observation[];
  /** How many pass the filters (before the query and the limit). */
  matching: number;
  /** How many live observations exist in all. */
  stored: number;
  /** True when `limit` cut the list short. */
  truncated: boolean;
}

export interface GotObservations {
  observations: Observation[];
  /** The ids asked for that name no live observation. */
  missing: string[];
}

export interface ObservationTimeline {
  status: ListStatus | 'anchor_only';
  message: string;
  /** The anchor, or null when none was given (then `after` is empty, `before` the newest). */
  anchor: Observation | null;
  /** Older than the anchor, oldest first. */
  before: Observation[];
  /** Newer than the anchor, oldest first. */
  after: Observation[];
  /** The time window applied (ISO 8601), when `window_secs` was given with an anchor. */
  window: { from: string; to: string } | null;
}

/** The observations recorded in one session (the session timeline's), oldest first. */
export interface SessionObservations {
  observations: Observation[];
  /** How many the session has in all. */
  total: number;
  /** True when `limit` cut the list short. */
  truncated: boolean;
}

/** Why inject_context left an observation out. */
export const OMIT_REASONS = [
  'over_budget',
  'filtered_by_type',
  'other_project',
  'other_repository',
  'not_relevant',
] as const;
export type OmitReason = (typeof OMIT_REASONS)[number];

export interface InjectedItem {
  id: string;
  type: ObservationType;
  /** The usefulness inject ranked it by (relevance, recency, type weight, locality). */
  score: number;
  /** Tokens its entry takes in the block. */
  tokens: number;
}

export interface InjectOmission {
  reason: OmitReason;
  count: number;
  /** Up to 20 of their ids. */
  ids: string[];
}

export interface InjectedContext {
  /** The block to inject: header, entries most useful first, and a line on what was left out. */
  block: string;
  /** Tokens of `block` (o200k_base, counted with gpt-tokenizer); never above maxTokens. */
  tokens: number;
  maxTokens: number;
  included: InjectedItem[];
  omitted: InjectOmission[];
  /** Observations considered (after the session/repository/project scoping). */
  considered: number;
  message: string;
}
