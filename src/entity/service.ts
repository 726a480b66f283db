// core.entities: the project and entity tools' calls, mapped onto the one engine. The project
// tool scopes everything but a project to its project_id (which must exist) and names rows by
// data.id; the entity tool names rows by `id` or a unique key its scoping ids cover.
import { InvalidInputError } from '../shared/index.js';
import type { Store } from '../store/index.js';
import { createEngine, type EntityCall } from './engine.js';
import { type EntityOutcome, type ResourceSpec, SCOPE_IDS, type Writer } from './model.js';
import { createRegistry, type Registry } from './registry.js';
import type { EntityInput, ProjectInput } from './schemas.js';

export interface EntitiesOptions {
  clock?: (() => number) | undefined;
}

export interface Entities {
  readonly registry: Registry;
  /** One call of the project tool. @throws the engine's refusals (see errors.ts). */
  project(args: ProjectInput, writer: Writer): Promise<EntityOutcome>;
  /** One call of the entity tool. @throws the engine's refusals (see errors.ts). */
  entity(args: EntityInput, writer: Writer): Promise<EntityOutcome>;
}

const ALL_PROJECTS = '*';

/** `data` of an action that takes at most `allowed` keys. @throws naming the first other key. */
function onlyKeys(
  data: Readonly<Record<string, unknown>> | undefined,
  allowed: readonly string[],
  action: string,
  hint: string,
): void {
  const extra = Object.keys(data ?? {}).find((k) => !allowed.includes(k));
  if (extra !== undefined) {
    throw new InvalidInputError(`is not used by ${action}${hint}`, `data.${extra}`);
  }
}

/** Builds the service over a store. */
export function createEntities(store: Store, options: EntitiesOptions = {}): Entities {
  const registry = createRegistry();
  const engine = createEngine(store, registry, options.clock ?? Date.now);
  const spec = (tool: 'project' | 'entity', name: string): ResourceSpec => {
    const found = registry.byName(tool, name);
    if (found === undefined) throw new InvalidInputError(`no ${tool} resource ${name}`, 'resource');
    return found;
  };

  function projectCall(args: ProjectInput, writer: Writer): EntityCall {
    const project = args.project_id;
    const base = { spec: spec('project', args.resource), scope: {}, writer };
    if (args.resource === 'project') {
      if (args.action === 'list') {
        const raw = project === ALL_PROJECTS ? args.filters : { ...args.filters, id: project };
        return { ...base, idLabel: 'project_id', filters: { raw, label: 'filters' } };
      }
      if (args.action !== 'create' && args.action !== 'update') {
        onlyKeys(args.data, [], args.action, ' (project_id names the project)');
      }
      const idOrNew = args.action === 'create' ? { newId: project } : { id: project };
      return { ...base, idLabel: 'project_id', data: args.data, ...idOrNew };
    }
    const { id, ...rest } = args.data ?? {};
    if (id !== undefined && typeof id !== 'string') {
      throw new InvalidInputError('must be a string', 'data.id');
    }
    if (args.action === 'create' && id !== undefined) {
      throw new InvalidInputError('is not used by create (ids are generated)', 'data.id');
    }
    if (args.action === 'list') onlyKeys(rest, [], 'list', ' (filter with filters)');
    else if (args.action !== 'create' && args.action !== 'update') {
      onlyKeys(rest, [], args.action, ' (only data.id)');
    }
    return {
      ...base,
      scope: { project_id: project },
      id,
      idLabel: 'data.id',
      data: rest,
      filters: { raw: args.filters, label: 'filters' },
      stored: { project_id: project },
    };
  }

  function entityCall(args: EntityInput, writer: Writer): EntityCall {
    const scope: Record<string, string> = {};
    for (const id of SCOPE_IDS) if (args[id] !== undefined) scope[id] = args[id];
    if (args.action === 'create' && args.id !== undefined) {
      throw new InvalidInputError('is not used by create (ids are generated)', 'id');
    }
    const read = !['create', 'update', 'list'].includes(args.action);
    if (read) onlyKeys(args.data, [], args.action, ' (it takes id or scoping ids)');
    return {
      spec: spec('entity', args.resource),
      id: args.id,
      idLabel: 'id',
      scope,
      data: args.action === 'list' ? undefined : args.data,
      filters: { raw: args.action === 'list' ? args.data : undefined, label: 'data' },
      writer,
    };
  }

  return {
    registry,
    async project(args, writer) {
      const call = projectCall(args, writer);
      if (args.resource !== 'project' && args.action !== 'create') {
        // The project must exist (create's integrity check names project_id itself).
        await engine.get({
          spec: spec('project', 'project'),
          id: args.project_id,
          idLabel: 'project_id',
          scope: {},
          writer,
        });
      }
      return engine[args.action](call);
    },
    entity: (args, writer) => engine[args.action](entityCall(args, writer)),
  };
}
