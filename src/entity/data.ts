// `data` of a create or update, parsed against the resource's declared fields (unknown and
// engine-set fields refused by name), merged with the call's scoping ids; and the list filters.
// Each value remembers who gave it (`data.<field>` or the scoping id), for the errors.
import { z } from 'zod';

import { parseData } from '../activity/sessions/index.js';
import { InvalidInputError } from '../shared/index.js';
import type { SqlValue } from '../store/index.js';
import type { ResourceSpec, ScopeId } from './model.js';
import { article, toColumn } from './rows.js';

/** Column values to write, and where each came from (`data.x` or a scoping id). */
export interface Written {
  values: Record<string, SqlValue>;
  source: Record<string, string>;
}

const writable = (spec: ResourceSpec) =>
  Object.entries(spec.fields).filter(([, f]) => f.system !== true);

/** The scoping ids of `spec`, for messages. */
export const scopesOf = (spec: ResourceSpec): string =>
  Object.keys(spec.scopes ?? {}).join(', ') || 'none';

/** The field a scoping id fills for `spec`. @throws InvalidInputError when it does not apply. */
export function scopeField(spec: ResourceSpec, scope: string): string {
  const field = spec.scopes?.[scope as ScopeId];
  if (field === undefined) {
    throw new InvalidInputError(
      `does not apply to ${article(spec.name)} (its scoping ids: ${scopesOf(spec)})`,
      scope,
    );
  }
  return field;
}

/** `data` of a create, with the scoping ids filling (and having to agree with) its fields. */
export function createValues(
  spec: ResourceSpec,
  data: Readonly<Record<string, unknown>> | undefined,
  scope: Readonly<Record<string, string>>,
): Written {
  const shape = Object.fromEntries(
    writable(spec).map(([name, f]) => [name, f.schema(`data.${name}`).optional()]),
  );
  const parsed = parseData(z.strictObject(shape), data) as Record<string, unknown>;
  const written: Written = { values: {}, source: {} };
  for (const [name, f] of writable(spec)) {
    if (parsed[name] === undefined) continue;
    written.values[name] = toColumn(f, parsed[name]);
    written.source[name] = `data.${name}`;
  }
  for (const [id, value] of Object.entries(scope)) {
    const field = scopeField(spec, id);
    const said = written.values[field];
    if (said !== undefined && said !== value) {
      throw new InvalidInputError(`is ${String(said)} but ${id} is ${value}`, `data.${field}`);
    }
    written.values[field] = value;
    if (said === undefined) written.source[field] = id;
  }
  for (const [name, f] of Object.entries(spec.fields)) {
    if (written.values[name] !== undefined) continue;
    if (f.required === true && f.system !== true) {
      const via = Object.entries(spec.scopes ?? {}).find(([, v]) => v === name)?.[0];
      throw new InvalidInputError(
        `is required to create ${article(spec.name)}${via === undefined ? '' : ` (or pass ${via})`}`,
        `data.${name}`,
      );
    }
    written.values[name] = f.default ?? null;
  }
  return written;
}

/** `data` of an update: the changed fields only; a fixed field refused; null clears an optional one. */
export function updateValues(
  spec: ResourceSpec,
  data: Readonly<Record<string, unknown>> | undefined,
): Written {
  const shape = Object.fromEntries(
    writable(spec).map(([name, f]) => {
      const s = f.schema(`data.${name}`);
      return [name, (f.required === true ? s : s.nullable()).optional()];
    }),
  );
  const parsed = parseData(z.strictObject(shape), data) as Record<string, unknown>;
  const written: Written = { values: {}, source: {} };
  for (const [name, f] of writable(spec)) {
    if (parsed[name] === undefined) continue;
    if (f.fixed === true) {
      throw new InvalidInputError(
        `cannot change: it is set when the ${spec.name} is created (create another instead)`,
        `data.${name}`,
      );
    }
    written.values[name] = toColumn(f, parsed[name]);
    written.source[name] = `data.${name}`;
  }
  return written;
}

export const LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

/** A list's field filters and page, from `filters` (project) or `data` (entity). */
export interface ListQuery {
  where: Record<string, SqlValue>;
  limit: number;
  offset: number;
}

const pageNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: () => `${label} must be a number` })
    .int(`${label} must be an integer`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/**
 * Field equality filters (declared, non-hidden, non-list fields; `id` too) plus `limit` and
 * `offset`, read from `raw` whose keys the caller wrote as `<label>.<key>`.
 * @throws InvalidInputError naming unknown filter fields, or a bad value.
 */
export function listQuery(
  spec: ResourceSpec,
  raw: Readonly<Record<string, unknown>> | undefined,
  label: string,
): ListQuery {
  const query: ListQuery = { where: {}, limit: LIST_LIMIT, offset: 0 };
  const fields = Object.entries(spec.fields).filter(
    ([, f]) => f.hidden !== true && f.column !== 'json',
  );
  const known = new Set(['id', ...fields.map(([n]) => n)]);
  const unknown = Object.keys(raw ?? {}).filter(
    (k) => !known.has(k) && k !== 'limit' && k !== 'offset',
  );
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `not a field of ${spec.name} to filter on (fields: ${[...known].join(', ')}; and limit, offset)`,
      unknown.map((k) => `${label}.${k}`).join(', '),
    );
  }
  for (const [key, value] of Object.entries(raw ?? {})) {
    const at = `${label}.${key}`;
    if (key === 'limit') query.limit = parse(pageNumber(at, 1, MAX_LIST_LIMIT), value, at);
    else if (key === 'offset') query.offset = parse(pageNumber(at, 0, 1_000_000), value, at);
    else query.where[key] = filterValue(value, at);
  }
  return query;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, at: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new InvalidInputError(r.error.issues[0]?.message ?? 'invalid', at);
}

function filterValue(value: unknown, at: string): SqlValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw new InvalidInputError('must be a string, a number, a boolean or null', at);
}
