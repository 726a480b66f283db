// The one engine behind the project and entity tools: create, get, update, list, delete and
// release of any registered resource, with integrity checked in the write transaction, the
// writer recorded, and honest list answers. Driven by the registry; no resource is special here.
import { randomBytes } from 'node:crypto';

import { ConflictError, InvalidInputError, NotFoundError } from '../shared/index.js';
import {
  countEntityRows,
  deleteEntityRow,
  entityRowById,
  type EntityRow,
  entityRowsWhere,
  type EntityWhere,
  insertEntityRow,
  type Queryable,
  type SqlValue,
  type Store,
  updateEntityRow,
} from '../store/index.js';
import { createValues, listQuery, scopeField, updateValues, type Written } from './data.js';
import { NotALeaseError } from './errors.js';
import { checkIntegrity, refuseIfDependents } from './integrity.js';
import { listAnswer } from './list.js';
import type { EntityOutcome, HookContext, ResourceSpec, Writer } from './model.js';
import type { Registry } from './registry.js';
import { article, recordName, toRecord } from './rows.js';

/** One call of either tool, as the engine takes it (tools.ts builds it from the arguments). */
export interface EntityCall {
  spec: ResourceSpec;
  /** The row (get, update, delete, release); absent: a unique key the scoping ids cover. */
  id?: string | undefined;
  /** How the caller names the id (`id`, `data.id`, `project_id`), for the errors. */
  idLabel: string;
  /** create: the new row's id (default: generated). */
  newId?: string | undefined;
  /** The scoping ids given (id → value). */
  scope: Readonly<Record<string, string>>;
  data?: Readonly<Record<string, unknown>> | undefined;
  /** list: the field filters and page, and how the caller names them (`filters`, `data`). */
  filters?: { raw: Readonly<Record<string, unknown>> | undefined; label: string };
  /** list: the rows counted as `stored` (the project, for the project tool). */
  stored?: EntityWhere;
  writer: Writer;
}

export type EntityEngine = ReturnType<typeof createEngine>;

const newId = (spec: ResourceSpec): string => `${spec.name}_${randomBytes(8).toString('hex')}`;

/** Builds the engine over a store. */
export function createEngine(store: Store, registry: Registry, clock: () => number) {
  const hookContext = (tx: Queryable): HookContext => ({
    tx,
    now: clock(),
    resource: (key) => registry.byKey(key),
  });

  async function mustGet(tx: Queryable, spec: ResourceSpec, id: string): Promise<EntityRow> {
    const row = await entityRowById(tx, spec.table, id);
    if (row === undefined) throw new Error(`${spec.name} ${id} vanished inside its transaction`);
    return row;
  }

  /** The row a get/update/delete/release names. @throws NotFoundError, InvalidInputError. */
  async function locate(tx: Queryable, call: EntityCall, action: string): Promise<EntityRow> {
    const { spec } = call;
    const fields = Object.fromEntries(
      Object.entries(call.scope).map(([s, v]) => [scopeField(spec, s), v]),
    );
    if (call.id === undefined) {
      const key = spec.unique?.find((k) => k.every((f) => fields[f] !== undefined));
      if (key === undefined) {
        throw new InvalidInputError(`is required to ${action} ${article(spec.name)}`, call.idLabel);
      }
      const [row] = await entityRowsWhere(tx, spec.table, fields, { limit: 1 });
      if (row !== undefined) return row;
      const said = Object.entries(call.scope).map(([s, v]) => `${s} ${v}`);
      throw new NotFoundError(`no ${spec.name} with ${said.join(' and ')}`);
    }
    const row = await entityRowById(tx, spec.table, call.id);
    if (row === undefined) throw new NotFoundError(`${spec.name} ${call.id} not found`);
    for (const [field, value] of Object.entries(fields)) {
      if (row[field] !== value) {
        throw new NotFoundError(
          `${spec.name} ${call.id} is not in ${field} ${value} (its ${field} is ${String(row[field])})`,
        );
      }
    }
    return row;
  }

  async function create(call: EntityCall): Promise<EntityOutcome> {
    const { spec, writer } = call;
    const w = createValues(spec, call.data, call.scope);
    const id = call.newId ?? newId(spec);
    return store.write(async (tx) => {
      if ((await entityRowById(tx, spec.table, id)) !== undefined) {
        throw new ConflictError(
          `${spec.name} ${id} already exists (update it, or pick another id)`,
        );
      }
      await checkIntegrity(tx, registry, spec, w);
      const hook = await spec.beforeCreate?.(hookContext(tx), { ...w.values, id });
      const now = clock();
      await insertEntityRow(tx, spec.table, {
        id,
        ...w.values,
        ...hook?.set,
        created_by: writer.agent,
        updated_by: writer.agent,
        provenance: JSON.stringify(writer.provenance),
        created_at: now,
        updated_at: now,
      });
      const record = toRecord(spec, await mustGet(tx, spec, id));
      const extra = hook?.extra ?? {};
      const shownOnce = 'secret' in extra ? ' — its secret is shown this once: store it now' : '';
      return {
        action: 'create',
        resource: spec.name,
        record,
        message: `Created ${recordName(record)}${shownOnce}.`,
        ...extra,
      };
    });
  }

  async function get(call: EntityCall): Promise<EntityOutcome> {
    return store.read(async (tx) => {
      const record = toRecord(call.spec, await locate(tx, call, 'get'), true);
      return { action: 'get', resource: call.spec.name, record, message: recordName(record) };
    });
  }

  async function update(call: EntityCall): Promise<EntityOutcome> {
    const { spec, writer } = call;
    const w = updateValues(spec, call.data);
    if (Object.keys(w.values).length === 0) {
      const names = Object.entries(spec.fields).filter(([, f]) => !f.system && !f.fixed);
      throw new InvalidInputError(
        `names no field to change (fields: ${names.map(([n]) => n).join(', ')})`,
        'data',
      );
    }
    return store.write(async (tx) => {
      const current = await locate(tx, call, 'update');
      const changed = Object.keys(w.values).filter((k) => current[k] !== w.values[k]);
      if (changed.length > 0) {
        const next: Written = { values: nextValues(spec, current, w), source: w.source };
        await checkIntegrity(tx, registry, spec, next, {
          self: current.id,
          changed: new Set(changed),
        });
        await spec.beforeUpdate?.(hookContext(tx), current, { ...next.values, id: current.id });
        const set = Object.fromEntries(changed.map((k) => [k, w.values[k] ?? null]));
        await updateEntityRow(tx, spec.table, current.id, {
          ...set,
          updated_by: writer.agent,
          updated_at: clock(),
        });
      }
      const record = toRecord(spec, await mustGet(tx, spec, current.id));
      const what = changed.length === 0 ? 'nothing changed' : `changed ${changed.join(', ')}`;
      return {
        action: 'update',
        resource: spec.name,
        record,
        changed,
        message: `Updated ${recordName(record)}: ${what}.`,
      };
    });
  }

  async function list(call: EntityCall): Promise<EntityOutcome> {
    const { spec } = call;
    const query = listQuery(spec, call.filters?.raw, call.filters?.label ?? 'filters');
    const where: Record<string, SqlValue> = { ...query.where };
    for (const [scope, value] of Object.entries(call.scope)) {
      const field = scopeField(spec, scope);
      if (where[field] !== undefined && where[field] !== value) {
        throw new InvalidInputError(
          `disagrees with ${scope} ${value}`,
          `${call.filters?.label ?? 'filters'}.${field}`,
        );
      }
      where[field] = value;
    }
    return store.read(async (tx) => {
      const stored = await countEntityRows(tx, spec.table, call.stored ?? {});
      const matching = await countEntityRows(tx, spec.table, where);
      const rows = await entityRowsWhere(tx, spec.table, where, query);
      const records = rows.map((r) => toRecord(spec, r));
      const answer = listAnswer(spec.name, { stored, matching, records, ...query });
      return { action: 'list', resource: spec.name, list: answer, message: answer.message };
    });
  }

  async function remove(call: EntityCall): Promise<EntityOutcome> {
    const { spec } = call;
    return store.write(async (tx) => {
      const row = await locate(tx, call, 'delete');
      await refuseIfDependents(tx, registry, spec, row.id);
      await deleteEntityRow(tx, spec.table, row.id);
      const record = toRecord(spec, row);
      return {
        action: 'delete',
        resource: spec.name,
        deleted: row.id,
        record,
        message: `Deleted ${recordName(record)}.`,
      };
    });
  }

  async function release(call: EntityCall): Promise<EntityOutcome> {
    const { spec, writer } = call;
    if (spec.lease !== true) {
      const leases = registry.all().filter((s) => s.lease === true && s.tool === spec.tool);
      throw new NotALeaseError(
        spec.name,
        leases.map((s) => s.name),
      );
    }
    return store.write(async (tx) => {
      const row = await locate(tx, call, 'release');
      const already = row['released_at'];
      if (already === null) {
        const now = clock();
        await updateEntityRow(tx, spec.table, row.id, {
          released_at: now,
          released_by: writer.agent,
          updated_by: writer.agent,
          updated_at: now,
        });
      }
      const record = toRecord(spec, await mustGet(tx, spec, row.id));
      const message =
        already === null
          ? `Released ${recordName(record)}.`
          : `${recordName(record)} was already released at ${new Date(Number(already)).toISOString()} by ${String(row['released_by'] ?? 'unknown')}; nothing changed.`;
      return {
        action: 'release',
        resource: spec.name,
        record,
        released: already === null,
        message,
      };
    });
  }

  return { create, get, update, list, delete: remove, release };
}

/** The row's field values after an update writes `w`. */
function nextValues(spec: ResourceSpec, current: EntityRow, w: Written): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  for (const name of Object.keys(spec.fields)) out[name] = current[name] ?? null;
  for (const [k, v] of Object.entries(w.values)) out[k] = v;
  return out;
}
