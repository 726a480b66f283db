// One zod schema per memory-tool input (field names exactly as the spec spells them).
import { z } from 'zod';

import { MAX_CONTENT_BYTES, SEARCH_MODES } from './model.js';

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

const ident = (what: string) =>
  z
    .string()
    .min(1, `${what} must be a non-empty string`)
    .max(200, `${what} is longer than 200 characters`);

const content = z
  .string()
  .min(1, last('content must be a non-empty string'))
  .refine((v) => v.trim() !== '', last('content must not be blank'))
  .refine(
    (v) => Buffer.byteLength(v, 'utf8') <= MAX_CONTENT_BYTES,
    `content is larger than ${MAX_CONTENT_BYTES / 1024} KiB`,
  );

const tags = z
  .array(
    z
      .string()
      .min(1, 'tags must be non-empty strings')
      .max(64, 'a tag is longer than 64 characters'),
  )
  .max(32, 'at most 32 tags');

export const memorySaveInput = z.object({
  content,
  title: z.string().max(500, 'title is longer than 500 characters').optional(),
  tags: tags.optional(),
  procedureName: ident('procedureName').optional(),
  scopeTeamId: ident('scopeTeamId').optional(),
  scopeAgentId: ident('scopeAgentId').optional(),
});

export const memorySearchInput = z.object({
  query: z
    .string()
    .min(1, last('query must be a non-empty string'))
    .max(4000, last('query is longer than 4000 characters'))
    .refine((v) => v.trim() !== '', 'query must not be blank'),
  mode: z.enum(SEARCH_MODES).optional(),
  limit: z.number().int().min(1).max(100).optional(),
  scopeTeamId: ident('scopeTeamId').optional(),
  scopeAgentId: ident('scopeAgentId').optional(),
});

export const memoryBrowseInput = z.object({
  limit: z.number().int().min(1).max(200).optional(),
  scopeTeamId: ident('scopeTeamId').optional(),
  scopeAgentId: ident('scopeAgentId').optional(),
});

export const memoryGetInput = z.object({
  id: ident('id'),
  scopeTeamId: ident('scopeTeamId').optional(),
  scopeAgentId: ident('scopeAgentId').optional(),
});

export const memorySetTagsInput = z.object({
  id: ident('id'),
  tags,
  scopeTeamId: ident('scopeTeamId').optional(),
  scopeAgentId: ident('scopeAgentId').optional(),
});

export const memoryRemoveInput = memoryGetInput;
