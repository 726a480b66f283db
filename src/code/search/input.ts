// Checks a search's arguments before anything is read: the query (bounded, control characters
// as spaces), limit, min_score, filters and extensions. Refusals name the spec's field.
import { InvalidInputError, stripInvisible } from '../../shared/index.js';
import { type ParsedFilters, parseFilters } from './filters.js';
import { CODE_SEARCH_DEFAULTS, type CodeSearchInput } from './types.js';

export interface CheckedInput {
  /** The query as searched and recorded: invisible characters stripped, controls as spaces. */
  query: string;
  collection: string | undefined;
  limit: number;
  minScore: number;
  filters: ParsedFilters;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;

function checkQuery(raw: unknown): string {
  if (typeof raw !== 'string') throw new InvalidInputError('must be a string', 'query');
  if (raw.length > CODE_SEARCH_DEFAULTS.maxQueryChars) {
    throw new InvalidInputError(
      `is longer than ${CODE_SEARCH_DEFAULTS.maxQueryChars} characters`,
      'query',
    );
  }
  const query = stripInvisible(raw).replace(CONTROLS, ' ').trim();
  if (query === '') throw new InvalidInputError('must not be blank', 'query');
  return query;
}

function checkLimit(raw: unknown): number {
  if (raw === undefined) return CODE_SEARCH_DEFAULTS.limit;
  const max = CODE_SEARCH_DEFAULTS.maxLimit;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > max) {
    throw new InvalidInputError(`must be an integer from 1 to ${max}`, 'limit');
  }
  return raw;
}

function checkMinScore(raw: unknown): number {
  if (raw === undefined) return 0;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || raw > 1) {
    throw new InvalidInputError('must be a number from 0 to 1', 'min_score');
  }
  return raw;
}

/**
 * The checked arguments of one search.
 * @throws InvalidInputError naming `query`, `limit`, `min_score`, `filters`, `extensions` or
 * `collection`.
 */
export function checkInput(input: CodeSearchInput): CheckedInput {
  if (typeof input !== 'object' || input === null) {
    throw new InvalidInputError('the search arguments must be an object', 'query');
  }
  const collection = input.collection;
  if (collection !== undefined && typeof collection !== 'string') {
    throw new InvalidInputError('must be a string', 'collection');
  }
  return {
    query: checkQuery(input.query),
    collection,
    limit: checkLimit(input.limit),
    minScore: checkMinScore(input.minScore),
    filters: parseFilters(input.filters ?? [], input.extensions ?? []),
  };
}
