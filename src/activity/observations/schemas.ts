// One zod schema per observation tool (the spec's memory-family and search-family parameter
// names: resource, data, ids, query, tags, session_id, project_id, repo_id, limit, anchor_id,
// depth_before, depth_after, window_secs, observation_types, max_tokens; min_score, token) and
// the mapping from parsed arguments to the service's inputs. No protocol types here.
import { z } from 'zod';

import { MAX_CONTENT_BYTES } from '../../memory/index.js';
import { firstInvisible } from '../../shared/index.js';
import type { Provenance } from '../fields.js';
import { INJECT_TOKENS } from './inject.js';
import { OBSERVATION_TYPES, type ObservationType } from './model.js';
import { LIST_LIMIT, type ObservationQuery, TIMELINE_DEPTH } from './read.js';
import { SEARCH_LIMIT } from './search.js';
import type { ObservationInput } from './write.js';

const last = (error: string) => ({ error, abort: true });
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const MAX_METADATA_BYTES = 16_384;
const TYPES = OBSERVATION_TYPES.join(', ');

/** An identifier: 1–256 characters, no control or invisible characters. */
const ident = (what: string) =>
  z
    .string({ error: () => `${what} must be a string` })
    .min(1, last(`${what} must not be empty`))
    .max(256, last(`${what} is longer than 256 characters`))
    .refine((v) => v.trim() !== '', last(`${what} must not be blank`))
    .refine((v) => !CONTROL.test(v), last(`${what} must not contain control characters`))
    .refine((v) => firstInvisible(v) === null, `${what} must not contain invisible characters`);

const resource = z
  .enum(OBSERVATION_TYPES, { error: () => `resource must be one of ${TYPES}` })
  .describe(`The memory resource (observation type): ${TYPES}`);

const tags = z
  .array(
    z
      .string({ error: () => 'tags must be strings' })
      .min(1, 'tags must be non-empty strings')
      .max(64, 'a tag is longer than 64 characters'),
  )
  .max(32, 'at most 32 tags');

const query = z
  .string({ error: () => 'query must be a string' })
  .min(1, last('query must not be empty'))
  .max(4000, last('query is longer than 4000 characters'))
  .refine((v) => v.trim() !== '', 'query must not be blank');

const int = (what: string, min: number, max: number) =>
  z
    .number({ error: () => `${what} must be a number` })
    .int(`${what} must be an integer`)
    .min(min, `${what} must be at least ${min}`)
    .max(max, `${what} must be at most ${max}`);

/** The filters every read takes. */
const filters = {
  tags: tags.optional().describe('Only items carrying every one of these tags'),
  session_id: ident('session_id').optional().describe('Only observations of this session'),
  project_id: ident('project_id').optional().describe('Only observations of this project'),
  repo_id: ident('repo_id').optional().describe('Only observations of this repository'),
};

const metadata = z
  .record(z.string(), z.unknown(), { error: () => 'data.metadata must be an object' })
  .refine(
    (v) => Buffer.byteLength(JSON.stringify(v) ?? '', 'utf8') <= MAX_METADATA_BYTES,
    `data.metadata is larger than ${MAX_METADATA_BYTES / 1024} KiB as JSON`,
  );

const data = z.strictObject(
  {
    content: z
      .string({
        error: (i) =>
          i.input === undefined ? 'data.content is required' : 'data.content must be a string',
      })
      .min(1, last('data.content must not be empty'))
      .refine((v) => v.trim() !== '', last('data.content must not be blank'))
      .refine(
        (v) => Buffer.byteLength(v, 'utf8') <= MAX_CONTENT_BYTES,
        `data.content is larger than ${MAX_CONTENT_BYTES / 1024} KiB`,
      ),
    title: z.string().max(500, 'data.title is longer than 500 characters').optional(),
    tags: tags.optional(),
    session_id: ident('data.session_id').optional(),
    project_id: ident('data.project_id').optional(),
    repo_id: ident('data.repo_id').optional(),
    key: ident('data.key').optional(),
    metadata: metadata.optional(),
  },
  {
    error: (i) =>
      i.code === 'unrecognized_keys'
        ? `data has unknown fields (${i.keys.join(', ')}): content, title, tags, session_id, project_id, repo_id, key, metadata`
        : 'data must be an object with content',
  },
);

export const storeMemoryInput = z.object({
  resource,
  data: data.describe(
    'content (required), title, tags, session_id / project_id / repo_id (default: the call’s provenance), key (idempotency: same key and content store nothing new, new content replaces), metadata (a JSON object)',
  ),
  ...filters,
});

export const getMemoriesInput = z.object({
  ids: z
    .array(ident('ids[]'), { error: () => 'ids must be an array of strings' })
    .min(1, 'ids must name at least one id')
    .max(100, 'at most 100 ids'),
  resource: resource
    .optional()
    .describe('Only observations of this type (others are reported as of another type)'),
});

export const listMemoriesInput = z.object({
  resource: resource.optional().describe('Only observations of this type (default: every type)'),
  query: query
    .optional()
    .describe('Rank by relevance to this text (memory search) instead of newest first'),
  ...filters,
  limit: int('limit', 1, LIST_LIMIT.max)
    .optional()
    .describe(`At most (default ${LIST_LIMIT.default})`),
});

export const memoryTimelineInput = z.object({
  resource: resource.optional().describe('Only neighbours of this type'),
  anchor_id: ident('anchor_id')
    .optional()
    .describe('The observation to centre on (default: the newest)'),
  depth_before: int('depth_before', 0, TIMELINE_DEPTH.max)
    .optional()
    .describe(`Observations before the anchor (default ${TIMELINE_DEPTH.default})`),
  depth_after: int('depth_after', 0, TIMELINE_DEPTH.max)
    .optional()
    .describe(`Observations after the anchor (default ${TIMELINE_DEPTH.default})`),
  window_secs: int('window_secs', 1, 10 * 365 * 86_400)
    .optional()
    .describe('Only observations within ± this many seconds of the anchor (without one: of now)'),
  ...filters,
});

export const injectContextInput = z.object({
  resource: resource.optional().describe('Shorthand for observation_types: [resource]'),
  observation_types: z
    .array(resource)
    .min(1, 'observation_types must name at least one type')
    .optional()
    .describe(`Types to include (default: all): ${TYPES}`),
  max_tokens: int('max_tokens', 1, INJECT_TOKENS.max)
    .optional()
    .describe(`Token budget of the block (o200k_base; default ${INJECT_TOKENS.default})`),
  query: query
    .optional()
    .describe('Rank by relevance to this text first; observations it does not match are left out'),
  ...filters,
});

export const searchMemoryInput = z.object({
  query: query.describe('What to look for in observations and memory facts'),
  resource: z
    .enum(['memory'], {
      error: () => 'resource must be "memory": search_memory searches memory (code is search_code)',
    })
    .optional()
    .describe('`memory` (the default and only value)'),
  tags: filters.tags,
  session_id: ident('session_id')
    .optional()
    .describe('Only observations of this session (facts belong to none)'),
  min_score: z
    .number({ error: () => 'min_score must be a number' })
    .min(0, 'min_score must be from 0 to 1')
    .max(1, 'min_score must be from 0 to 1')
    .optional()
    .describe('Leave out hits scoring below this (0–1)'),
  limit: int('limit', 1, SEARCH_LIMIT.max)
    .optional()
    .describe(`At most (default ${SEARCH_LIMIT.default})`),
  token: z
    .string({ error: () => 'token must be a string' })
    .max(8192, 'token is longer than 8192 characters')
    .optional()
    .describe('JWT for authenticated requests (see the server docs)'),
});

export type StoreMemoryArgs = z.infer<typeof storeMemoryInput>;
export type ListMemoriesArgs = z.infer<typeof listMemoriesInput>;
export type MemoryTimelineArgs = z.infer<typeof memoryTimelineInput>;
export type InjectContextArgs = z.infer<typeof injectContextInput>;

/** The filters of a read, from its arguments. */
export function queryOf(a: {
  resource?: ObservationType | undefined;
  tags?: string[] | undefined;
  session_id?: string | undefined;
  project_id?: string | undefined;
  repo_id?: string | undefined;
}): ObservationQuery {
  return {
    types: a.resource === undefined ? undefined : [a.resource],
    tags: a.tags,
    sessionId: a.session_id,
    projectId: a.project_id,
    repoId: a.repo_id,
  };
}

/** store_memory's observation: data's fields first, then the top-level ones, then provenance. */
export function observationOf(a: StoreMemoryArgs, provenance: Provenance): ObservationInput {
  const d = a.data;
  return {
    type: a.resource,
    content: d.content,
    title: d.title,
    tags: [...(d.tags ?? []), ...(a.tags ?? [])],
    sessionId: d.session_id ?? a.session_id,
    projectId: d.project_id ?? a.project_id,
    repoId: d.repo_id ?? a.repo_id,
    key: d.key,
    metadata: d.metadata,
    provenance,
  };
}
