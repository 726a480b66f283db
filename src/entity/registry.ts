// The registry both tools run on: every resource by key and by (tool, resource name), and for
// each resource the fields of others that reference it (what a delete must look at). Built once
// from the declarations and checked (every reference names a known resource).
import { ENTITY_RESOURCE_NAMES, type EntityTool, type ResourceSpec } from './model.js';
import { ORG_RESOURCES } from './org-resources.js';
import { PROJECT_RESOURCES } from './project-resources.js';
import { VCS_RESOURCES } from './vcs-resources.js';
import { WORK_RESOURCES } from './work-resources.js';

/** A field of `spec` that references another resource. */
export interface Referrer {
  spec: ResourceSpec;
  field: string;
}

export interface Registry {
  /** The resource with this key. @throws Error for an unknown key (a registry bug). */
  byKey(key: string): ResourceSpec;
  /** The tool's resource of this name, or undefined. */
  byName(tool: EntityTool, name: string): ResourceSpec | undefined;
  /** The tool's resource names, in the spec's order. */
  names(tool: EntityTool): string[];
  /** Fields of other resources that reference `key`. */
  referrers(key: string): readonly Referrer[];
  all(): readonly ResourceSpec[];
}

const order = (s: ResourceSpec): number =>
  (ENTITY_RESOURCE_NAMES as readonly string[]).indexOf(s.name);

/** Builds the registry. @throws Error when a declaration references an unknown resource. */
export function createRegistry(): Registry {
  const entity = [...VCS_RESOURCES, ...WORK_RESOURCES, ...ORG_RESOURCES].sort(
    (a, b) => order(a) - order(b),
  );
  const all = [...PROJECT_RESOURCES, ...entity];
  const byKey = new Map(all.map((s) => [s.key, s]));
  const referrers = new Map<string, Referrer[]>();
  for (const spec of all) {
    for (const [field, f] of Object.entries(spec.fields)) {
      for (const target of f.ref ?? []) {
        if (!byKey.has(target)) throw new Error(`${spec.key}.${field} references ${target}`);
        referrers.set(target, [...(referrers.get(target) ?? []), { spec, field }]);
      }
    }
  }
  return {
    byKey(key) {
      const spec = byKey.get(key);
      if (spec === undefined) throw new Error(`no resource ${key}`);
      return spec;
    },
    byName: (tool, name) => all.find((s) => s.tool === tool && s.name === name),
    names: (tool) => all.filter((s) => s.tool === tool).map((s) => s.name),
    referrers: (key) => referrers.get(key) ?? [],
    all: () => all,
  };
}
