// The execution-provenance record (field names exactly as the spec's provenance table spells
// them), the fields each tool family needs, and the one check every value passes. Pure: no
// environment, no git, no clock here.
import { firstInvisible } from '../shared/index.js';

/** Who asked, from where, with what: one record per server, refined per request. */
export interface Provenance {
  session_id: string;
  repo_path: string;
  /** Hash of the normalised origin URL; absent for plain filesystem workspaces. */
  repo_id?: string;
  /** owner/repo from the origin URL; absent for plain filesystem workspaces. */
  project_id?: string;
  worktree_id: string;
  operator_id?: string;
  machine_id?: string;
  agent_program: string;
  model_id?: string;
  delegated: boolean;
  parent_session_id?: string;
  /** Unix epoch, seconds. */
  timestamp: number;
  /**
   * The agent a verified token named (the context server with auth on). Never read from
   * `_meta`: a request that tries to set it is refused, so it is not in PROVENANCE_FIELDS.
   */
  authenticated_agent?: string;
}

/** The provenance key only a verified token sets (a `_meta` carrying it is refused). */
export const AUTHENTICATED_AGENT = 'authenticated_agent';

/** Every field, in the spec's table order (messages list missing fields in this order). */
export const PROVENANCE_FIELDS = [
  'session_id',
  'repo_path',
  'repo_id',
  'project_id',
  'worktree_id',
  'operator_id',
  'machine_id',
  'agent_program',
  'model_id',
  'delegated',
  'parent_session_id',
  'timestamp',
] as const;

/** A field name of the provenance record. */
export type ProvenanceField = (typeof PROVENANCE_FIELDS)[number];

/** The tool families the spec says need provenance. */
export type ProvenanceFamily = 'index' | 'search' | 'memory';

/**
 * The spec's "Required: yes" fields. The three families share one table in the spec; the map
 * keeps them apart so a family can diverge without touching callers. `repo_id` ("required if
 * repo_path absent") and `parent_session_id` (when delegated) are checked separately.
 */
const REQUIRED: readonly ProvenanceField[] = [
  'session_id',
  'repo_path',
  'operator_id',
  'machine_id',
  'agent_program',
  'model_id',
  'delegated',
  'timestamp',
];

/** The fields each tool family needs before it may run. */
export const FAMILY_REQUIREMENTS: Readonly<Record<ProvenanceFamily, readonly ProvenanceField[]>> = {
  index: REQUIRED,
  search: REQUIRED,
  memory: REQUIRED,
};

/** IDE session variables, first hit wins (exactly the spec's list). */
export const SESSION_ID_VARIABLES = ['CURSOR_TRACE_ID', 'CLAUDE_SESSION_ID'] as const;

/** Model variables, first hit wins: the spec's vendor list, then Cairn's own explicit one. */
export const MODEL_ID_VARIABLES = [
  'OPENAI_MODEL',
  'ANTHROPIC_MODEL',
  'CLAUDE_MODEL',
  'GEMINI_MODEL',
  'OLLAMA_MODEL',
  'AZURE_OPENAI_MODEL',
  'COHERE_MODEL',
  'MISTRAL_MODEL',
  'CAIRN_MODEL_ID',
] as const;

/** agent_program when no client or IDE is detected. */
export const DEFAULT_AGENT_PROGRAM = 'cairn-stdio';

/** Longest accepted value: paths may be long, identifiers may not. */
export const MAX_PATH_CHARS = 4096;
/** Longest accepted identifier (session, model, operator, …). */
export const MAX_ID_CHARS = 256;

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return true;
  }
  return false;
}

/**
 * Why `value` is not acceptable as the text of `field` (a phrase for a message), or undefined
 * when it is: empty, too long, or holding control or invisible characters.
 */
export function stringProblem(field: ProvenanceField, value: string): string | undefined {
  const max = field === 'repo_path' ? MAX_PATH_CHARS : MAX_ID_CHARS;
  if (value.trim() === '') return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters (got ${value.length})`;
  if (hasControl(value)) return 'must not contain control characters';
  if (firstInvisible(value) !== null) return 'must not contain invisible characters';
  return undefined;
}
