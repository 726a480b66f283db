// Referential integrity for the project and entity tools: every reference names an existing
// row of its kinds (and of the same parent where the registry says so), a board link names a
// live task, unique keys hold, and a delete is refused while other rows reference the row.
import { ConflictError } from '../shared/index.js';
import {
  countEntityRows,
  entityRowById,
  type EntityRow,
  entityRowsWhere,
  liveBoardTask,
  type Queryable,
  type SqlValue,
} from '../store/index.js';
import type { Written } from './data.js';
import {
  CrossParentError,
  DEPENDENTS_NAMED,
  type Dependents,
  HasDependentsError,
  MissingReferenceError,
} from './errors.js';
import type { ResourceSpec, SameParent } from './model.js';
import type { Registry } from './registry.js';
import { article } from './rows.js';

/** The row `id` names among `targets` (resource keys), with its resource; undefined if none. */
export async function findAmong(
  tx: Queryable,
  registry: Registry,
  targets: readonly string[],
  id: string,
): Promise<{ spec: ResourceSpec; row: EntityRow } | undefined> {
  for (const key of targets) {
    const spec = registry.byKey(key);
    const row = await entityRowById(tx, spec.table, id);
    if (row !== undefined) return { spec, row };
  }
  return undefined;
}

const labelOf = (w: Written, field: string): string => w.source[field] ?? `data.${field}`;

/**
 * Checks the references and board links of the row `w` (on update: of the `changed` fields
 * only), the resource's same-parent rules and its unique keys (`self`: the row's own id).
 * @throws MissingReferenceError, CrossParentError, ConflictError.
 */
export async function checkIntegrity(
  tx: Queryable,
  registry: Registry,
  spec: ResourceSpec,
  w: Written,
  update?: { self: string; changed: ReadonlySet<string> },
): Promise<void> {
  for (const [field, f] of Object.entries(spec.fields)) {
    const value = w.values[field];
    if (typeof value !== 'string' || (update !== undefined && !update.changed.has(field))) continue;
    if (f.ref !== undefined && (await findAmong(tx, registry, f.ref, value)) === undefined) {
      const kinds = f.ref.map((k) => registry.byKey(k).name);
      throw new MissingReferenceError(labelOf(w, field), kinds, value);
    }
    if (f.boardTask === true && (await liveBoardTask(tx, value)) === undefined) {
      throw new MissingReferenceError(labelOf(w, field), ['live board task'], value);
    }
  }
  for (const rule of spec.sameParent ?? []) await checkSameParent(tx, registry, spec, w, rule);
  await checkUnique(tx, spec, w.values, update?.self);
}

async function refColumn(
  tx: Queryable,
  registry: Registry,
  spec: ResourceSpec,
  value: SqlValue | undefined,
  field: string,
  column: string,
): Promise<{ found: string; value: SqlValue } | undefined> {
  const targets = spec.fields[field]?.ref;
  if (typeof value !== 'string' || targets === undefined) return undefined;
  const hit = await findAmong(tx, registry, targets, value);
  if (hit === undefined) return undefined;
  return { found: `${hit.spec.name} ${value}`, value: hit.row[column] ?? null };
}

async function checkSameParent(
  tx: Queryable,
  registry: Registry,
  spec: ResourceSpec,
  w: Written,
  rule: SameParent,
): Promise<void> {
  const left = await refColumn(tx, registry, spec, w.values[rule.field], rule.field, rule.column);
  if (left === undefined || left.value === null) return;
  const right =
    typeof rule.equals === 'string'
      ? { found: `this ${spec.name}`, value: w.values[rule.equals] ?? null }
      : await refColumn(
          tx,
          registry,
          spec,
          w.values[rule.equals.ref],
          rule.equals.ref,
          rule.equals.column,
        );
  if (right === undefined || right.value === null || right.value === left.value) return;
  throw new CrossParentError(
    `${labelOf(w, rule.field)}: ${left.found} has ${rule.column} ${String(left.value)}, but ${right.found} has ${rule.column} ${String(right.value)} — ${article(spec.name)} takes ${rule.why}`,
  );
}

async function checkUnique(
  tx: Queryable,
  spec: ResourceSpec,
  values: Readonly<Record<string, SqlValue>>,
  self: string | undefined,
): Promise<void> {
  for (const key of spec.unique ?? []) {
    const where = Object.fromEntries(key.map((k) => [k, values[k] ?? null]));
    const [other] = (await entityRowsWhere(tx, spec.table, where, { limit: 2 })).filter(
      (r) => r.id !== self,
    );
    if (other === undefined) continue;
    const said = key.map((k) => `${k} ${String(values[k] ?? null)}`).join(' and ');
    throw new ConflictError(
      `${article(spec.name)} with ${said} already exists: ${other.id} (${key.length === 1 ? 'it is' : 'they are'} unique; update that one instead)`,
    );
  }
}

/** What references `id` of `spec`: per referencing field, the count and the first few ids. */
export async function dependentsOf(
  tx: Queryable,
  registry: Registry,
  spec: ResourceSpec,
  id: string,
): Promise<Dependents[]> {
  const found: Dependents[] = [];
  for (const { spec: other, field } of registry.referrers(spec.key)) {
    const where = { [field]: id };
    const count = await countEntityRows(tx, other.table, where);
    if (count === 0) continue;
    const rows = await entityRowsWhere(tx, other.table, where, { limit: DEPENDENTS_NAMED });
    const resource = other.tool === spec.tool ? other.name : `${other.tool} ${other.name}`;
    found.push({ resource, field, count, ids: rows.map((r) => r.id) });
  }
  return found;
}

/** @throws HasDependentsError when anything references `id` of `spec`. */
export async function refuseIfDependents(
  tx: Queryable,
  registry: Registry,
  spec: ResourceSpec,
  id: string,
): Promise<void> {
  const dependents = await dependentsOf(tx, registry, spec, id);
  if (dependents.length > 0) throw new HasDependentsError(`${spec.name} ${id}`, dependents);
}
