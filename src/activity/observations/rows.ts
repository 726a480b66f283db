// Stored observation rows → the Observation shape (JSON columns parsed defensively: a row some
// other writer damaged reads as empty, never throws).
import type { ObservationRow } from '../../store/index.js';
import { type Observation, OBSERVATION_TYPES, type ObservationType } from './model.js';

function parseObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function parseTags(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const isType = (v: string): v is ObservationType =>
  (OBSERVATION_TYPES as readonly string[]).includes(v);

/** The observation a row holds. */
export function toObservation(row: ObservationRow): Observation {
  return {
    id: row.id,
    type: isType(row.resource) ? row.resource : 'observation',
    title: row.title,
    content: row.content,
    tags: parseTags(row.tags),
    sessionId: row.session_id,
    projectId: row.project_id,
    repoId: row.repo_id,
    key: row.obs_key,
    metadata: parseObject(row.meta),
    provenance: parseObject(row.provenance),
    observedAt: new Date(row.observed_at).toISOString(),
  };
}
