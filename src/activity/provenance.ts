// Per-request provenance: the boot record refined by the request's `_meta` (validated, any
// field may be overridden), and the fast-fail check a tool family runs before it works. Throws
// typed errors only; the MCP layer turns them into JSON-RPC -32602 (src/mcp/errors.ts).
import { DomainError } from '../shared/index.js';
import {
  FAMILY_REQUIREMENTS,
  MODEL_ID_VARIABLES,
  type Provenance,
  PROVENANCE_FIELDS,
  type ProvenanceFamily,
  type ProvenanceField,
  stringProblem,
} from './fields.js';

/** Base of the provenance refusals; the MCP layer answers each with JSON-RPC -32602. */
export class ProvenanceError extends DomainError {}

/** A tool family needs fields that could not be resolved. Message exactly as the spec has it. */
export class ProvenanceMissingError extends ProvenanceError {
  constructor(
    readonly tool: ProvenanceFamily,
    readonly missing: readonly ProvenanceField[],
    message: string,
  ) {
    super('provenance_missing', message);
  }
}

/** A provenance value the request supplied is not acceptable (wrong type, too long, …). */
export class ProvenanceInvalidError extends ProvenanceError {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super('provenance_invalid', `Invalid execution provenance: ${field} ${problem}`);
  }
}

const vendorModels = MODEL_ID_VARIABLES.slice(0, -1).join(', ');
const explicitModel = MODEL_ID_VARIABLES.at(-1) ?? '';

/** The spec's model_id fast-fail text, naming every variable the cascade reads. */
export const MODEL_ID_HINT = `model_id could not be auto-discovered. Set one of: ${vendorModels}. Or set ${explicitModel} explicitly.`;

/** Said when `delegated` is true without a parent session. */
export const PARENT_HINT = 'delegated is true, so parent_session_id is required.';

/** A string field counts as present when it holds non-blank text. */
function present(p: Readonly<Partial<Provenance>>, field: ProvenanceField): boolean {
  const value = p[field];
  if (field === 'delegated') return typeof value === 'boolean';
  if (field === 'timestamp') return typeof value === 'number' && Number.isSafeInteger(value);
  return typeof value === 'string' && value.trim() !== '';
}

/** The fields `tool` needs that `p` lacks, in the spec's table order. */
function missingFields(
  tool: ProvenanceFamily,
  p: Readonly<Partial<Provenance>>,
  also: readonly ProvenanceField[],
): ProvenanceField[] {
  const needed = new Set([...FAMILY_REQUIREMENTS[tool], ...also]);
  // repo_id is required only when repo_path is absent: either one identifies the repository.
  if (needed.has('repo_path') && !present(p, 'repo_path')) {
    if (present(p, 'repo_id')) needed.delete('repo_path');
    else needed.add('repo_id');
  }
  if (p.delegated === true) needed.add('parent_session_id');
  return PROVENANCE_FIELDS.filter((f) => needed.has(f) && !present(p, f));
}

/**
 * Fails fast when `tool` ('index', 'search', 'memory') cannot run with `provenance`: throws
 * ProvenanceMissingError `Missing execution provenance for '<tool>': <field>, <field>` (fields
 * in the spec's table order), followed by the model_id hint or the delegation hint when those
 * are what is missing. `also` adds fields a particular call needs. Returns the record, checked.
 */
export function requireProvenance(
  tool: ProvenanceFamily,
  provenance: Readonly<Partial<Provenance>>,
  options: { also?: readonly ProvenanceField[] } = {},
): Provenance {
  const missing = missingFields(tool, provenance, options.also ?? []);
  if (missing.length === 0) return provenance as Provenance;
  const parts = [`Missing execution provenance for '${tool}': ${missing.join(', ')}`];
  if (missing.includes('model_id')) parts.push(MODEL_ID_HINT);
  if (missing.includes('parent_session_id') && provenance.delegated === true) {
    parts.push(PARENT_HINT);
  }
  throw new ProvenanceMissingError(tool, missing, parts.join('. '));
}

/** Names a JSON value's type for a message: `number`, `null`, `array`, `object`. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** One `_meta` value checked against its field's type; throws ProvenanceInvalidError. */
function checkedValue(field: ProvenanceField, value: unknown): string | number | boolean {
  const where = `_meta.${field}`;
  if (field === 'delegated') {
    if (typeof value !== 'boolean') {
      throw new ProvenanceInvalidError(where, `must be a boolean (got ${typeName(value)})`);
    }
    return value;
  }
  if (field === 'timestamp') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new ProvenanceInvalidError(
        where,
        'must be a non-negative integer (Unix epoch seconds)',
      );
    }
    return value;
  }
  if (typeof value !== 'string') {
    throw new ProvenanceInvalidError(where, `must be a string (got ${typeName(value)})`);
  }
  const problem = stringProblem(field, value);
  if (problem !== undefined) throw new ProvenanceInvalidError(where, problem);
  return value.trim();
}

/** The provenance fields a request's `_meta` sets (other keys, e.g. progressToken, ignored). */
function overridesOf(meta: unknown): Partial<Provenance> {
  if (meta === undefined || meta === null) return {};
  if (typeof meta !== 'object' || Array.isArray(meta)) {
    throw new ProvenanceInvalidError('_meta', `must be an object (got ${typeName(meta)})`);
  }
  const record = meta as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of PROVENANCE_FIELDS) {
    if (!Object.hasOwn(record, field) || record[field] === undefined) continue;
    out[field] = checkedValue(field, record[field]);
  }
  return out as Partial<Provenance>;
}

/** Options of resolveProvenance. */
export interface ResolveOptions {
  /** The MCP client's `clientInfo.name`: becomes agent_program unless `_meta` names one. */
  clientName?: string;
  /** Milliseconds since the epoch for the request's timestamp; default `Date.now`. */
  clock?: () => number;
}

/**
 * The provenance of one request: `base` (from discoverProvenance) with every field the
 * request's `_meta` sets taking precedence (keys are the spec's field names, e.g.
 * `{"session_id": "abc"}`), agent_program from the client name, and the request's own
 * timestamp. A `parent_session_id` implies `delegated: true`. Throws ProvenanceInvalidError
 * for a value of the wrong type, blank, too long or with control characters, and for
 * `delegated: false` next to a parent session. Does not check completeness (requireProvenance).
 */
export function resolveProvenance(
  base: Readonly<Provenance>,
  meta: unknown,
  options: ResolveOptions = {},
): Provenance {
  const overrides = overridesOf(meta);
  const resolved: Provenance = { ...base };
  const client = options.clientName?.trim();
  if (client && stringProblem('agent_program', client) === undefined) {
    resolved.agent_program = client;
  }
  resolved.timestamp = Math.floor((options.clock ?? Date.now)() / 1000);
  Object.assign(resolved, overrides);
  if (overrides.parent_session_id !== undefined && overrides.delegated === undefined) {
    resolved.delegated = true;
  }
  if (resolved.delegated === false && resolved.parent_session_id !== undefined) {
    throw new ProvenanceInvalidError('_meta.delegated', 'is false but parent_session_id is set');
  }
  return resolved;
}
