// Boot-time discovery of every provenance field by the spec's cascade, from injected inputs
// (environment, working directory, git runner, host name, pid, clock) so tests control each
// source. Never throws for a field it cannot find: it leaves the field absent, and the tool
// that needs it fails fast (requireProvenance).
import {
  DEFAULT_AGENT_PROGRAM,
  MODEL_ID_VARIABLES,
  type Provenance,
  type ProvenanceField,
  SESSION_ID_VARIABLES,
  stringProblem,
} from './fields.js';
import { originIdentity } from './origin.js';
import { discoverWorkspace, execGit, type GitRunner, type WorkspaceDetector } from './workspace.js';

/** Everything discovery reads. Only `env` and `cwd` are required; the rest default to the OS. */
export interface DiscoveryInputs {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Runs git; default `execGit` (execFile with a timeout). */
  git?: GitRunner;
  /** `os.hostname()` in production. */
  hostname?: string;
  pid?: number;
  /** Milliseconds since the epoch; default `Date.now`. */
  clock?: () => number;
  /** The MCP client's `clientInfo.name`, when the caller already knows it. */
  clientName?: string;
  detectors?: readonly WorkspaceDetector[];
}

/** A value a source offered that failed validation (for the server to log once at boot). */
export interface RejectedSource {
  field: ProvenanceField;
  source: string;
  reason: string;
}

/** The discovered record, where each field came from, and what was refused on the way. */
export interface Discovery {
  provenance: Provenance;
  sources: Partial<Record<ProvenanceField, string>>;
  rejected: RejectedSource[];
}

/** A candidate value and the name of its source. */
type Candidate = readonly [source: string, value: string | undefined];

/** Picks the first acceptable candidate; blank values count as unset, bad ones are recorded. */
function firstValid(
  field: ProvenanceField,
  candidates: readonly Candidate[],
  found: Discovery,
): string | undefined {
  for (const [source, raw] of candidates) {
    const value = raw?.trim();
    if (value === undefined || value === '') continue;
    const problem = stringProblem(field, value);
    if (problem !== undefined) {
      found.rejected.push({ field, source, reason: problem });
      continue;
    }
    found.sources[field] = source;
    return value;
  }
  return undefined;
}

/** Candidates from environment variables, in order. */
function fromEnv(env: DiscoveryInputs['env'], names: readonly string[]): Candidate[] {
  return names.map((name) => [`env:${name}`, env[name]] as const);
}

/** The IDE the environment reveals (Cursor, Claude Code, VS Code), if any. */
function detectedIde(env: DiscoveryInputs['env']): Candidate[] {
  return [
    ['env:CURSOR_TRACE_ID', env.CURSOR_TRACE_ID ? 'cursor' : undefined],
    ['env:CLAUDECODE', env.CLAUDECODE ? 'claude-code' : undefined],
    ['env:TERM_PROGRAM', env.TERM_PROGRAM === 'vscode' ? 'vscode' : undefined],
  ];
}

/** `<agent>-<host>-<pid>-<timestamp>`, each part reduced to `[A-Za-z0-9._-]`. */
function traceableId(parts: readonly (string | number | undefined)[]): string {
  return parts
    .filter((p) => p !== undefined && p !== '')
    .map((p) => String(p).replace(/[^A-Za-z0-9._-]/g, '_'))
    .join('-');
}

/** Fills the fields that do not depend on the workspace. */
function discoverIdentity(inputs: DiscoveryInputs, found: Discovery, timestamp: number): void {
  const { env } = inputs;
  const p = found.provenance;
  const agent = firstValid(
    'agent_program',
    [['client', inputs.clientName], ...detectedIde(env)],
    found,
  );
  p.agent_program = agent ?? DEFAULT_AGENT_PROGRAM;
  if (agent === undefined) found.sources.agent_program = 'default';
  const machine = firstValid(
    'machine_id',
    [
      ['hostname', inputs.hostname],
      ['env:HOSTNAME', env.HOSTNAME],
    ],
    found,
  );
  if (machine !== undefined) p.machine_id = machine;
  const operator = firstValid('operator_id', fromEnv(env, ['USER']), found);
  if (operator !== undefined) p.operator_id = operator;
  const model = firstValid('model_id', fromEnv(env, MODEL_ID_VARIABLES), found);
  if (model !== undefined) p.model_id = model;
  const session = firstValid('session_id', fromEnv(env, SESSION_ID_VARIABLES), found);
  p.session_id =
    session ?? traceableId([p.agent_program, p.machine_id, inputs.pid ?? process.pid, timestamp]);
  if (session === undefined) found.sources.session_id = 'generated';
}

/**
 * Discovers every field once (call at server start). session_id: CURSOR_TRACE_ID,
 * CLAUDE_SESSION_ID, else `<agent>-<host>-<pid>-<timestamp>`; repo_path/worktree_id: git, else
 * the canonical cwd; repo_id/project_id: the origin URL; operator_id: $USER; machine_id: host
 * name, else $HOSTNAME; agent_program: client name, detected IDE, else `cairn-stdio`;
 * model_id: MODEL_ID_VARIABLES; delegated: false; timestamp: the clock (epoch seconds).
 */
export async function discoverProvenance(inputs: DiscoveryInputs): Promise<Discovery> {
  const timestamp = Math.floor((inputs.clock ?? Date.now)() / 1000);
  const workspace = await discoverWorkspace(inputs.cwd, inputs.git ?? execGit, inputs.detectors);
  const found: Discovery = {
    provenance: {
      session_id: '',
      repo_path: workspace.repo_path,
      worktree_id: workspace.worktree_id,
      agent_program: DEFAULT_AGENT_PROGRAM,
      delegated: false,
      timestamp,
    },
    sources: {
      repo_path: workspace.source,
      worktree_id: workspace.source,
      delegated: 'default',
      timestamp: 'clock',
    },
    rejected: [],
  };
  addOrigin(workspace.origin, found);
  discoverIdentity(inputs, found, timestamp);
  return found;
}

/** repo_id and project_id from the origin URL, when there is one git could clone from. */
function addOrigin(origin: string | undefined, found: Discovery): void {
  if (origin === undefined) return;
  const identity = originIdentity(origin);
  if (identity === undefined) {
    found.rejected.push({ field: 'repo_id', source: 'origin', reason: 'not a clone URL' });
    return;
  }
  const project = stringProblem('project_id', identity.project_id);
  found.provenance.repo_id = identity.repo_id;
  found.sources.repo_id = 'origin';
  if (project === undefined) {
    found.provenance.project_id = identity.project_id;
    found.sources.project_id = 'origin';
  } else {
    found.rejected.push({ field: 'project_id', source: 'origin', reason: project });
  }
}
