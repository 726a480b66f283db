// The connection binding (`Binding`) as CLI flags, shared by `cairn mcp <server>` (which takes
// the flags of its server's binding) and `cairn config` (which refuses a flag its --server does
// not bind, so a snippet never names a flag the server would refuse).
import { checkGraphName, GraphNameError } from '../graph/index.js';
import {
  type Binding,
  isMcpServerName,
  MCP_SERVER_NAMES,
  MCP_SERVERS,
  type McpServerName,
} from '../mcp/index.js';
import { UsageError } from './args.js';

/** The connection binding as flags (`cairn mcp <server>` and `cairn config`). */
export const BINDING_FLAGS = {
  'read-only': { type: 'boolean', help: 'tasks: serve only list_tasks and get_task' },
  tenant: { type: 'string', arg: 'ID', help: "memory: bind the session's scope to a tenant" },
  team: {
    type: 'string',
    arg: 'ID',
    help: 'bind the session to a team (board reads, memory scope)',
  },
  agent: {
    type: 'string',
    arg: 'ID',
    help: "the session's agent (board identity, memory scope, the tool broker's caller)",
  },
  'room-team': { type: 'string', arg: 'ID', help: 'teamchat: the bound room, team:<ID>' },
  author: { type: 'string', arg: 'ID', help: "teamchat: the author of the session's posts" },
  delegate: {
    type: 'boolean',
    help: 'teamchat: an orchestrator-driven run (lists team_delegate; needs --room-team and --author)',
  },
  'agent-token': {
    type: 'string',
    arg: 'TOKEN',
    help: 'backplane: act as the agent this token belongs to (default: $CAIRN_AGENT_TOKEN, else the operator)',
  },
  graph: {
    type: 'string',
    arg: 'NAME',
    help: 'graph: the named graph to serve (default: $CAIRN_GRAPH_NAME, else default; vault:* names are reserved)',
  },
} as const;

/** The flag of each binding field (the registry's bindingParams name the fields a server honours). */
export const BINDING_FLAG: Readonly<Record<keyof Binding, keyof typeof BINDING_FLAGS>> = {
  readOnly: 'read-only',
  scopeTenantId: 'tenant',
  scopeTeamId: 'team',
  scopeAgentId: 'agent',
  roomTeamId: 'room-team',
  postAuthorAgentId: 'author',
  delegate: 'delegate',
  agentToken: 'agent-token',
  graphName: 'graph',
};

/**
 * Flags of `cairn mcp <name>` beyond its signed attach params: backplane's agent token (stdio
 * only, not `cairn config`'s) and graph's name (`cairn config` writes it as `?graph=`).
 */
const UNSIGNED: Partial<Record<McpServerName, keyof typeof BINDING_FLAGS>> = {
  backplane: 'agent-token',
  graph: 'graph',
};

/** The binding flags `cairn mcp <name>` takes: its attach params, and UNSIGNED's. */
export function serverFlags(name: McpServerName): (keyof typeof BINDING_FLAGS)[] {
  const flags = MCP_SERVERS[name].bindingParams.map((k) => BINDING_FLAG[k]);
  const extra = UNSIGNED[name];
  return extra === undefined ? flags : [...flags, extra];
}

/**
 * `name` when a graph connection or import may address it.
 * @throws UsageError naming `source` for a malformed or reserved `vault:` name
 */
export function checkedGraph(name: string, source: string): string {
  try {
    return checkGraphName(name, source);
  } catch (e) {
    if (e instanceof GraphNameError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The graph `cairn mcp graph` serves: `--graph`, else $CAIRN_GRAPH_NAME (empty = unset), else
 * undefined (the default graph).
 * @throws UsageError naming the flag or variable for a malformed or reserved name
 */
export function graphChoice(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (flag !== undefined) return checkedGraph(flag, '--graph');
  const fromEnv = env['CAIRN_GRAPH_NAME'];
  return fromEnv === undefined || fromEnv === ''
    ? undefined
    : checkedGraph(fromEnv, 'CAIRN_GRAPH_NAME');
}

type BindingFlagName = keyof typeof BINDING_FLAGS;

/**
 * `cairn config`'s checks before it renders: `--server` is given (the message lists the
 * servers), and no binding flag names something that server does not bind.
 * @throws UsageError
 */
export function checkConfigBinding(
  values: Readonly<Partial<Record<BindingFlagName | 'server', string | boolean | undefined>>>,
): void {
  const server = values.server;
  if (typeof server !== 'string') {
    throw new UsageError(
      `--server is required: one of ${MCP_SERVER_NAMES.join(', ')} (e.g. cairn config --runtime claude-code --server tasks)`,
    );
  }
  if (!isMcpServerName(server)) return;
  const binds: BindingFlagName[] = serverFlags(server).filter((f) => f !== 'agent-token');
  const stray = (Object.keys(BINDING_FLAGS) as BindingFlagName[]).find(
    (f) => values[f] !== undefined && !binds.includes(f),
  );
  if (stray === undefined) return;
  const takes =
    binds.length === 0
      ? 'takes no binding flags'
      : `binds ${binds.map((f) => `--${f}`).join(', ')}`;
  throw new UsageError(`--${stray} does not apply to the ${server} server (it ${takes})`);
}
