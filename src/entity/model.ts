// The declarative shape of the project and entity resources: each resource's fields (zod type,
// storage, parent references, board links), unique keys, scoping ids and cross-parent rules,
// and what the engine returns. Types only, plus the tools' action and scope-id lists.
import type { z } from 'zod';

import type { Queryable, SqlValue } from '../store/index.js';

export const ENTITY_TOOLS = ['project', 'entity'] as const;
export type EntityTool = (typeof ENTITY_TOOLS)[number];

export const PROJECT_ACTIONS = ['create', 'get', 'update', 'list', 'delete'] as const;
export const ENTITY_ACTIONS = [...PROJECT_ACTIONS, 'release'] as const;
export type EntityAction = (typeof ENTITY_ACTIONS)[number];

/** The project tool's resources (spec section 7), in its order. */
export const PROJECT_RESOURCE_NAMES = [
  'project',
  'phase',
  'issue',
  'dependency',
  'decision',
] as const;

/** The entity tool's resources (spec section 9), in its order. */
export const ENTITY_RESOURCE_NAMES = [
  'repository',
  'branch',
  'worktree',
  'assignment',
  'plan',
  'version',
  'review',
  'issue',
  'comment',
  'label',
  'label_assignment',
  'org',
  'user',
  'team',
  'team_member',
  'api_key',
] as const;

/** The entity tool's scoping ids (spec section 9), in its order. */
export const SCOPE_IDS = [
  'org_id',
  'repository_id',
  'plan_id',
  'plan_version_id',
  'issue_id',
  'label_id',
  'project_id',
  'team_id',
  'user_id',
  'worktree_id',
  'email',
] as const;
export type ScopeId = (typeof SCOPE_IDS)[number];

/** How a field is stored: text, integer, or JSON text (arrays, objects). */
export type ColumnType = 'text' | 'int' | 'json';

export interface FieldSpec {
  /** The value's type, its messages naming `label` (`data.<name>`); never optional here. */
  readonly schema: (label: string) => z.ZodType;
  readonly column: ColumnType;
  /** Must be given on create (in `data` or through a scoping id). */
  readonly required?: boolean;
  /** Stored when create does not say. */
  readonly default?: SqlValue;
  /** Keys of the resources this id must name (more than one: any of them). */
  readonly ref?: readonly string[];
  /** Set at create, never changed (a branch stays in its repository). */
  readonly fixed?: boolean;
  /** The id of a live board task (checked to exist; linked, not copied). */
  readonly boardTask?: boolean;
  /** Set by the engine, never by the caller. */
  readonly system?: boolean;
  /** Stored but never returned (an api key's hash). */
  readonly hidden?: boolean;
  /** One line for the docs and the tool description. */
  readonly doc: string;
}

/** A referenced row's column must equal this row's field (or another referenced row's column). */
export interface SameParent {
  /** This row's reference field. */
  readonly field: string;
  /** The column of the row it names. */
  readonly column: string;
  /** This row's field, or `ref.column` of the row another field names. */
  readonly equals: string | { readonly ref: string; readonly column: string };
  /** What the rule protects, for the refusal. */
  readonly why: string;
}

/** What a hook may use inside the write transaction. */
export interface HookContext {
  readonly tx: Queryable;
  readonly now: number;
  /** Any resource by key (cycle checks look at the dependency table). */
  readonly resource: (key: string) => ResourceSpec;
}

/** Extra columns a hook sets, and what the answer carries besides the record (once). */
export interface HookResult {
  readonly set?: Readonly<Record<string, SqlValue>>;
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface ResourceSpec {
  /** Unique across both tools (`project_issue` vs the entity tool's `issue`). */
  readonly key: string;
  readonly tool: EntityTool;
  /** The name the tool's `resource` argument uses. */
  readonly name: string;
  readonly table: string;
  /** One line: what it is. */
  readonly doc: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Field sets no two rows share (a null matches a null). */
  readonly unique?: readonly (readonly string[])[];
  /** Which scoping ids of the tool filter its list and fill its fields (id → field). */
  readonly scopes?: Readonly<Partial<Record<ScopeId, string>>>;
  readonly sameParent?: readonly SameParent[];
  /** release ends it (sets released_at); only leases can be released. */
  readonly lease?: boolean;
  /** Runs before insert, inside the transaction, with the row as it will be stored. */
  readonly beforeCreate?: (
    ctx: HookContext,
    row: Readonly<Record<string, SqlValue>>,
  ) => Promise<HookResult | undefined>;
  /** Runs before an update, with the row as it was and as it will be. */
  readonly beforeUpdate?: (
    ctx: HookContext,
    current: Readonly<Record<string, SqlValue>>,
    next: Readonly<Record<string, SqlValue>>,
  ) => Promise<void>;
}

/** A resource row as the tools return it: camelCase keys, JSON fields parsed. */
export type EntityRecord = Record<string, unknown> & { id: string; resource: string };

/** Who writes: the caller's agent and the call's provenance. */
export interface Writer {
  readonly agent: string | null;
  readonly provenance: Readonly<Record<string, unknown>>;
}

export type ListStatus = 'ok' | 'empty' | 'filtered_out';

export interface EntityList {
  status: ListStatus;
  message: string;
  records: EntityRecord[];
  /** Rows in the tool's scope (the project, for the project tool) before filters. */
  stored: number;
  /** Rows the scoping ids and filters match. */
  matching: number;
  offset: number;
  limit: number;
  truncated: boolean;
}

/** What one call of either tool answers. */
export interface EntityOutcome {
  action: EntityAction;
  resource: string;
  message: string;
  record?: EntityRecord;
  list?: EntityList;
  /** update: the fields that changed. */
  changed?: string[];
  /** release: whether this call ended it (false: it had ended already). */
  released?: boolean;
  /** delete: the id removed. */
  deleted?: string;
  /** api_key create: the secret, shown this once. */
  secret?: string;
}
