// One zod schema per cairn-vault tool input, parameter names and defaults exactly as the spec
// (memory-vault.md) spells them. Shape only: vault names, paths and globs are checked by the
// domain, naming the same fields. Defaults are applied here so every caller sees the same.
import { z } from 'zod';

/** A check whose failure ends the field's checks: one problem, one issue. */
const last = (error: string) => ({ error, abort: true });

/** A non-blank string of at most `max` characters, errors naming `field`. */
export const text = (field: string, max: number) =>
  z
    .string({ error: () => `${field} must be a string` })
    .min(1, last(`${field} must be a non-empty string`))
    .max(max, last(`${field} is longer than ${max} characters`))
    .refine((v) => v.trim() !== '', `${field} must not be blank`);

/** An integer in [min, max], errors naming `field`. */
export const int = (field: string, min: number, max: number) =>
  z
    .number({ error: () => `${field} must be a number` })
    .int(`${field} must be an integer`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

const flag = (field: string) => z.boolean({ error: () => `${field} must be true or false` });

const score = (field: string) =>
  z
    .number({ error: () => `${field} must be a number` })
    .min(0, `${field} must be at least 0`)
    .max(1, `${field} must be at most 1`);

export const MAX_QUERY_CHARS = 4000;
const query = text('query', MAX_QUERY_CHARS);
const vault = text('vault', 100).optional();
const collection = text('collection', 1000).optional();
const includeInternal = flag('includeInternal').default(false);
const docid = text('docid', 4096);

export const RETRIEVE_MODES = [
  'auto',
  'keyword',
  'semantic',
  'causal',
  'timeline',
  'discovery',
  'complex',
  'hybrid',
] as const;

export const memoryRetrieveInput = z.object({
  query,
  mode: z
    .enum(RETRIEVE_MODES, { error: () => `mode must be one of ${RETRIEVE_MODES.join(', ')}` })
    .default('auto'),
  limit: int('limit', 1, 100).default(10),
  compact: flag('compact').default(true),
  includeInternal,
  vault,
});

export const queryInput = z.object({
  query,
  limit: int('limit', 1, 100).default(10),
  compact: flag('compact').default(false),
  collection,
  intent: text('intent', 500).optional(),
  candidateLimit: int('candidateLimit', 1, 200).default(30),
  includeInternal,
  vault,
});

const rawSearch = {
  query,
  limit: int('limit', 1, 100).default(10),
  /** No default: omitted = no filter on raw routes; an explicit 0 is honoured. */
  minScore: score('minScore').optional(),
  compact: flag('compact').default(false),
  collection,
  includeInternal,
  vault,
};
export const searchInput = z.object(rawSearch);
export const vsearchInput = z.object(rawSearch);

export const INTENT_NAMES = ['WHY', 'WHEN', 'ENTITY', 'WHAT'] as const;
export const intentSearchInput = z.object({
  query,
  limit: int('limit', 1, 100).default(10),
  force_intent: z
    .enum(INTENT_NAMES, { error: () => 'force_intent must be one of WHY, WHEN, ENTITY, WHAT' })
    .optional(),
  enable_graph_traversal: flag('enable_graph_traversal').default(true),
  vault,
});

export const queryPlanInput = z.object({
  query,
  limit: int('limit', 1, 100).default(10),
  compact: flag('compact').default(true),
  includeInternal,
  vault,
});

export const WEIGHT_PROFILE_NAMES = ['default', 'query'] as const;
export const memoryRankInput = z.object({
  query,
  limit: int('limit', 1, 50).default(10),
  collection,
  weightProfile: z
    .enum(WEIGHT_PROFILE_NAMES, { error: () => 'weightProfile must be default or query' })
    .default('default'),
  includeInternal,
  vault,
});

export const getInput = z.object({
  file: text('file', 4096),
  fromLine: int('fromLine', 1, 10_000_000).optional(),
  maxLines: int('maxLines', 1, 1_000_000).optional(),
  lineNumbers: flag('lineNumbers').default(false),
  vault,
});

export const multiGetInput = z.object({
  pattern: text('pattern', 8192),
  maxLines: int('maxLines', 1, 1_000_000).optional(),
  maxBytes: int('maxBytes', 1, 10 * 1024 * 1024).default(10240),
  lineNumbers: flag('lineNumbers').default(false),
  vault,
});

export const findSimilarInput = z.object({
  file: text('file', 4096),
  limit: int('limit', 1, 100).default(5),
  includeInternal,
  vault,
});

export const timelineInput = z.object({
  docid,
  before: int('before', 1, 20).default(5),
  after: int('after', 1, 20).default(5),
  same_collection: flag('same_collection').default(false),
  vault,
});

export const sessionLogInput = z.object({ limit: int('limit', 1, 100).default(10), vault });

export const memoryPinInput = z.object({ query, unpin: flag('unpin').default(false), vault });

const isoDate = z
  .string({ error: () => 'until must be a string' })
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) &&
      !Number.isNaN(Date.parse(v)),
    'until must be an ISO date (e.g. 2026-04-01)',
  );
export const memorySnoozeInput = z.object({ query, until: isoDate.optional(), vault });

export const memoryForgetInput = z.object({ query, confirm: flag('confirm').default(true), vault });

export const vaultOnlyInput = z.object({ vault });

export const lifecycleSweepInput = z.object({ dry_run: flag('dry_run').default(true), vault });

export const lifecycleRestoreInput = z.object({
  query: text('query', MAX_QUERY_CHARS).optional(),
  collection: text('collection', 200).optional(),
  all: flag('all').default(false),
  vault,
});

export const memoryStatsInput = z.object({ collection: text('collection', 200).optional(), vault });

export const listVaultsInput = z.object({});

export const vaultSyncInput = z.object({
  vault: text('vault', 100),
  content_root: text('content_root', 4096),
  pattern: text('pattern', 1000).default('**/*.md'),
  collection_name: text('collection_name', 200).optional(),
});

export type MemoryRetrieveArgs = z.infer<typeof memoryRetrieveInput>;
export type QueryArgs = z.infer<typeof queryInput>;
export type SearchArgs = z.infer<typeof searchInput>;
export type IntentSearchArgs = z.infer<typeof intentSearchInput>;
export type QueryPlanArgs = z.infer<typeof queryPlanInput>;
export type MemoryRankArgs = z.infer<typeof memoryRankInput>;
export type GetArgs = z.infer<typeof getInput>;
export type MultiGetArgs = z.infer<typeof multiGetInput>;
export type FindSimilarArgs = z.infer<typeof findSimilarInput>;
export type TimelineArgs = z.infer<typeof timelineInput>;
export type VaultSyncArgs = z.infer<typeof vaultSyncInput>;
