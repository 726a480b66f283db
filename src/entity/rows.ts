// Between stored rows and what the tools answer: a value as its column stores it, a row as a
// record (camelCase keys, JSON fields parsed, hidden fields left out), and a record's name.
import type { EntityRow, SqlValue } from '../store/index.js';
import type { EntityRecord, FieldSpec, ResourceSpec } from './model.js';

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** `a branch`, `an issue`, `a user` (a "yoo" sound takes `a`). */
export const article = (noun: string): string =>
  `${/^[aeiou]/.test(noun) && !/^use/.test(noun) ? 'an' : 'a'} ${noun}`;

/** A parsed `data` value as its column stores it. */
export function toColumn(field: FieldSpec, value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (field.column === 'json') return JSON.stringify(value);
  return value as SqlValue;
}

function fromColumn(field: FieldSpec, value: SqlValue | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (field.column !== 'json' || typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

/** A stored row as the tools return it (`provenance` too when `withProvenance`). */
export function toRecord(spec: ResourceSpec, row: EntityRow, withProvenance = false): EntityRecord {
  const out: EntityRecord = { resource: spec.name, id: row.id };
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.hidden !== true) out[camel(name)] = fromColumn(field, row[name]);
  }
  out['createdBy'] = row['created_by'] ?? null;
  out['updatedBy'] = row['updated_by'] ?? null;
  out['createdAt'] = row.created_at;
  out['updatedAt'] = row.updated_at;
  if (withProvenance) {
    out['provenance'] = fromColumn({ column: 'json' } as FieldSpec, row['provenance']);
  }
  return out;
}

/** `issue 1f2e… "title"`: the resource, id and its title or name when it has one. */
export function recordName(record: EntityRecord): string {
  const label = record['title'] ?? record['name'] ?? record['email'] ?? record['path'];
  return typeof label === 'string'
    ? `${record.resource} ${record.id} "${label}"`
    : `${record.resource} ${record.id}`;
}
