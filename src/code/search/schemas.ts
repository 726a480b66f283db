// The zod schema of search_code's input (field names as the spec spells them: query,
// collection, extensions, filters, limit, min_score). Shape and bounds only; the domain checks
// the filter syntax, the extensions and the collection name (checkInput, parseFilters).
import { z } from 'zod';

import { CODE_SEARCH_DEFAULTS as D, type CodeSearchInput } from './types.js';

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

export const searchCodeInput = z.object({
  query: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'query is required' : 'query must be a string',
    })
    .min(1, last('query must not be empty'))
    .max(D.maxQueryChars, last(`query is longer than ${D.maxQueryChars} characters`)),
  collection: z.string().min(1, last('collection must not be empty')).max(256).optional(),
  extensions: z
    .array(z.string().max(40, 'an extension is too long'))
    .max(D.maxExtensions, `at most ${D.maxExtensions} extensions`)
    .optional(),
  filters: z
    .array(z.string().max(D.maxFilterChars, 'a filter is too long'))
    .max(D.maxFilters, `at most ${D.maxFilters} filters`)
    .optional(),
  limit: z
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(D.maxLimit, `limit must be at most ${D.maxLimit}`)
    .optional(),
  min_score: z
    .number()
    .min(0, 'min_score must be from 0 to 1')
    .max(1, 'min_score must be from 0 to 1')
    .optional(),
});

/** The domain's input from the parsed tool arguments. */
export function toSearchInput(args: z.infer<typeof searchCodeInput>): CodeSearchInput {
  return {
    query: args.query,
    collection: args.collection,
    extensions: args.extensions,
    filters: args.filters,
    limit: args.limit,
    minScore: args.min_score,
  };
}
