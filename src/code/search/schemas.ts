// The zod schema of search_code's input (field names as the spec spells them: query, resource,
// collection, extensions, filters, limit, min_score, token). Shape and bounds only; the domain
// checks the filter syntax, the extensions and the collection name (checkInput, parseFilters).
// `resource` and `token` stop at the edge: toSearchInput never passes them on.
import { z } from 'zod';

import { CODE_SEARCH_DEFAULTS as D, type CodeSearchInput } from './types.js';

/**
 * The refusal of any `resource` but `code`: the spec's search family also names memory and
 * context, which search_code does not search (search_memory is a tool of its own).
 */
export const RESOURCE_ONLY_CODE =
  'resource must be "code": search_code searches the code index (memory is searched by search_memory, not served yet)';

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

export const searchCodeInput = z.object({
  query: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'query is required' : 'query must be a string',
    })
    .min(1, last('query must not be empty'))
    .max(D.maxQueryChars, last(`query is longer than ${D.maxQueryChars} characters`))
    .describe('What to look for: words, identifiers (camelCase, snake_case), paths'),
  resource: z
    .enum(['code'], { error: () => RESOURCE_ONLY_CODE })
    .optional()
    .describe('What to search: `code` (the default, and the only value search_code serves)'),
  collection: z
    .string()
    .min(1, last('collection must not be empty'))
    .max(256)
    .optional()
    .describe('One collection (default: every indexed collection)'),
  extensions: z
    .array(z.string().max(40, 'an extension is too long'))
    .max(D.maxExtensions, `at most ${D.maxExtensions} extensions`)
    .optional()
    .describe('Only files with one of these extensions (ts, .py, *.go)'),
  filters: z
    .array(z.string().max(D.maxFilterChars, 'a filter is too long'))
    .max(D.maxFilters, `at most ${D.maxFilters} filters`)
    .optional()
    .describe(
      'key:value filters, all must hold: path:, lang:, branch: (@ = work tree), kind:, symbol:, ext:',
    ),
  limit: z
    .number()
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(D.maxLimit, `limit must be at most ${D.maxLimit}`)
    .optional()
    .describe(`Results at most (default ${D.limit}, 1–${D.maxLimit})`),
  min_score: z
    .number()
    .min(0, 'min_score must be from 0 to 1')
    .max(1, 'min_score must be from 0 to 1')
    .optional()
    .describe("Leave out results scoring below this (0–1, on the answer's scoreBasis; default 0)"),
  token: z
    .string({ error: () => 'token must be a string' })
    .max(8192, 'token is longer than 8192 characters')
    .optional()
    .describe('Accepted for compatibility, never checked or stored (see the server docs)'),
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
