// The `cairn` command table: every command, its arguments and flags, and the handler it runs.
// The parser and every help text (`cairn --help`, `cairn <command> --help`) are built from this
// table alone (program.ts); add a command or a flag here, nowhere else.
import { RUNTIMES } from '../http/index.js';
import { MCP_SERVER_NAMES, type McpServerName } from '../mcp/index.js';
import { agents } from './agents-commands.js';
import { BINDING_FLAGS, serverFlags } from './binding-flags.js';
import { approvals, audit } from './broker-commands.js';
import { config, mcp, serve, token } from './commands.js';
import { CONTEXT_MODE_FLAGS } from './context-modes.js';
import { command, type CommandSpec, pickFlags } from './flags.js';
import { importServerMemory } from './import-command.js';
import { indexCommand } from './index-command.js';
import { migrateStore } from './migrate-command.js';
import { open } from './open-command.js';
import { tokenMint } from './token-commands.js';

/** One-line descriptions of the command groups (`cairn mcp`, `cairn approvals`, …). */
export const GROUPS: Readonly<Record<string, string>> = {
  mcp: 'one MCP server over stdio (each also ships as a bin, cairn-mcp-<server>)',
  approvals: 'decide tool calls waiting for a human (the tool broker)',
  agents: 'the backplane agents: list them, rotate or revoke their credentials',
  import: "bring another tool's data into Cairn (the official memory server's file)",
};

/** `--db` of commands that read an existing database (never create one). */
const READ_DB = {
  db: {
    type: 'string',
    arg: 'PATH',
    help: "the database to read, never created (default: $CAIRN_DB_PATH, else the running server's, else $CAIRN_HOME/cairn.db)",
  },
  'db-url': {
    type: 'string',
    arg: 'URL',
    help: 'a PostgreSQL store (postgres://…) to read instead of a SQLite file (default: $CAIRN_DB_URL)',
  },
} as const;

/** `--db` of the serving commands, which create the database when it is missing. */
const SERVE_DB = {
  db: {
    type: 'string',
    arg: 'PATH',
    help: 'the SQLite file, created if missing (default: $CAIRN_DB_PATH, else $CAIRN_HOME/cairn.db)',
  },
  'db-url': {
    type: 'string',
    arg: 'URL',
    help: 'use PostgreSQL (postgres://…) instead of the SQLite file; migrated on start (default: $CAIRN_DB_URL)',
  },
} as const;

const LEASE = {
  'lease-ms': {
    type: 'string',
    arg: 'N',
    help: 'claim lease in ms (default: $CAIRN_LEASE_MS, else 900000 = 15 min)',
  },
} as const;

const JSON_FLAG = { json: { type: 'boolean', help: 'print JSON instead of lines' } } as const;

const IRC_FLAGS = {
  'irc-host': {
    type: 'string',
    arg: 'HOST',
    help: 'IRC bind address (default: $CAIRN_IRC_HOST, else 127.0.0.1)',
  },
  'irc-port': {
    type: 'string',
    arg: 'N',
    help: 'IRC port, 0 turns IRC off (default: $CAIRN_IRC_PORT, else 6667; a taken default only disables IRC)',
  },
  'irc-tls-cert': {
    type: 'string',
    arg: 'PEM',
    help: 'serve IRC over TLS: certificate chain file',
  },
  'irc-tls-key': {
    type: 'string',
    arg: 'PEM',
    help: 'serve IRC over TLS: key file (with --irc-tls-cert)',
  },
} as const;

const SERVER_SUMMARY: Readonly<Record<McpServerName, string>> = {
  tasks: 'the tasks server (the board) over stdio; also the bin cairn-mcp-tasks',
  memory: 'the memory server over stdio; also the bin cairn-mcp-memory',
  teamchat: 'the team-room server over stdio; also the bin cairn-mcp-teamchat',
  tools: 'the tool broker over stdio (--agent names the caller); also the bin cairn-mcp-tools',
  backplane:
    'the backplane over stdio (acts as the operator unless given an agent token); also the bin cairn-mcp-backplane',
  context:
    'the code-context server over stdio (paths within $CAIRN_CODE_ROOTS); also the bin cairn-mcp-context',
  vault:
    'the document-memory vault server over stdio (vaults from $CAIRN_VAULTS or vault_sync); also the bin cairn-mcp-vault',
  graph:
    'the knowledge-graph server over stdio, a drop-in for @modelcontextprotocol/server-memory, on one named graph; also the bin cairn-mcp-graph',
};

const mcpCommands = MCP_SERVER_NAMES.map((name) =>
  command({
    path: ['mcp', name],
    summary: SERVER_SUMMARY[name],
    flags: {
      ...SERVE_DB,
      ...LEASE,
      ...pickFlags(BINDING_FLAGS, serverFlags(name)),
      ...pickFlags(CONTEXT_MODE_FLAGS, name === 'context' ? ['mode', 'remote', 'token'] : []),
    },
    run: (positionals, values) => mcp(positionals, values),
  }),
);

const CONFIG_FLAGS = {
  runtime: { type: 'string', arg: 'NAME', help: 'the agent runtime', choices: RUNTIMES },
  server: {
    type: 'string',
    arg: 'NAME',
    help: 'the MCP server to attach',
    choices: MCP_SERVER_NAMES,
  },
  transport: {
    type: 'string',
    arg: 'T',
    help: 'http: the running server (default); stdio: spawn cairn mcp <server>',
    choices: ['http', 'stdio'],
  },
  ...pickFlags(BINDING_FLAGS, [
    'tenant',
    'team',
    'agent',
    'read-only',
    'room-team',
    'author',
    'delegate',
    'graph',
  ]),
  url: {
    type: 'string',
    arg: 'BASE',
    help: "the server's base URL (default: the running server's, from $CAIRN_HOME/serve.json, else http://$CAIRN_HOST:$CAIRN_PORT, 127.0.0.1:4870)",
  },
  'no-auth': { type: 'boolean', help: 'no token header (for a server run with --no-auth)' },
  db: {
    type: 'string',
    arg: 'PATH',
    help: "the SQLite file a stdio snippet names when $CAIRN_DB_URL is unset (default: $CAIRN_DB_PATH, else the running server's database, its PostgreSQL URL included, else $CAIRN_HOME/cairn.db)",
  },
} as const;

const APPROVALS_BY = {
  by: { type: 'string', arg: 'NAME', help: 'who decides, for the audit (default: cli:$USER)' },
} as const;
const ID = [{ name: 'id', help: 'the approval id' }];
const NICK = [{ name: 'nick', help: "the agent's nick" }];

// Each `cairn approvals <action>` is one entry calling approvals(['<action>', …]); a new action
// (such as listing or revoking grants) is one more entry here, with only its own flags.
const approvalCommands = [
  command({
    path: ['approvals', 'list'],
    summary: 'list approvals, newest first',
    flags: {
      status: {
        type: 'string',
        arg: 'S',
        help: 'pending (default), allowed, denied, expired, cancelled or all',
      },
      limit: { type: 'string', arg: 'N', help: 'at most N rows (default 50)' },
      ...JSON_FLAG,
      ...READ_DB,
    },
    run: (positionals, values) => approvals(positionals, values),
  }),
  command({
    path: ['approvals', 'show'],
    args: ID,
    summary: 'print one approval as JSON',
    flags: READ_DB,
    run: (positionals, values) => approvals(positionals, values),
  }),
  command({
    path: ['approvals', 'approve'],
    args: ID,
    summary: 'allow the waiting call (once, or always for this caller and tool)',
    flags: {
      always: {
        type: 'boolean',
        help: "also grant the call's authenticated agent this tool from now on (bound callers only)",
      },
      expires: {
        type: 'string',
        arg: 'WHEN',
        help: 'with --always: the grant ends after an age (30m, 12h, 7d), at an ISO date or epoch ms',
      },
      ...APPROVALS_BY,
      ...READ_DB,
    },
    run: (positionals, values) => approvals(positionals, values),
  }),
  command({
    path: ['approvals', 'deny'],
    args: ID,
    summary: 'deny the waiting call',
    flags: { ...APPROVALS_BY, ...READ_DB },
    run: (positionals, values) => approvals(positionals, values),
  }),
  command({
    path: ['approvals', 'grants'],
    summary: 'list "approve always" grants (agent + tool), newest first',
    flags: {
      status: { type: 'string', arg: 'S', help: 'active (default), expired, revoked or all' },
      principal: { type: 'string', arg: 'P', help: 'only this principal (agent:<id>)' },
      tool: { type: 'string', arg: 'T', help: 'only this tool' },
      ...JSON_FLAG,
      ...READ_DB,
    },
    run: (positionals, values) => approvals(positionals, values),
  }),
  command({
    path: ['approvals', 'revoke'],
    args: [{ name: 'id', help: 'the grant id (cairn approvals grants)' }],
    summary: 'revoke a grant: its next call waits for a human again',
    flags: { ...APPROVALS_BY, ...READ_DB },
    run: (positionals, values) => approvals(positionals, values),
  }),
];

const AUDIT_FLAGS = {
  tool: { type: 'string', arg: 'T', help: 'only this tool' },
  caller: { type: 'string', arg: 'C', help: 'only this caller' },
  outcome: { type: 'string', arg: 'O', help: 'only this outcome (e.g. ok, denied, error)' },
  step: {
    type: 'string',
    arg: 'S',
    help: 'only this pipeline step (e.g. approval, decision, result)',
  },
  call: { type: 'string', arg: 'ID', help: "only this call's rows" },
  since: {
    type: 'string',
    arg: 'WHEN',
    help: 'from: epoch ms, an ISO date or an age (15m, 2h, 7d)',
  },
  until: { type: 'string', arg: 'WHEN', help: 'until: epoch ms, an ISO date or an age' },
  limit: { type: 'string', arg: 'N', help: 'rows per page' },
  cursor: { type: 'string', arg: 'N', help: 'the next page (printed after a full page)' },
  ...JSON_FLAG,
  ...READ_DB,
} as const;

const INDEX_FLAGS = {
  collection: {
    type: 'string',
    arg: 'NAME',
    help: "the collection (default: the directory's name)",
  },
  extensions: {
    type: 'string',
    arg: 'LIST',
    help: 'only these extensions, comma-separated (ts,py)',
  },
  'exclude-dirs': {
    type: 'string',
    arg: 'LIST',
    help: 'directories to leave out, comma-separated (a name at any depth, or a path)',
  },
  'ignore-patterns': {
    type: 'string',
    arg: 'LIST',
    help: 'gitignore-style globs to leave out, comma-separated',
  },
  'max-file-size': { type: 'string', arg: 'N', help: 'skip files over N bytes (default 1 MiB)' },
  'follow-symlinks': { type: 'boolean', help: 'follow symbolic links (loops are skipped)' },
  git: { type: 'boolean', help: 'index what git tracks at --branches instead of the work tree' },
  branches: {
    type: 'string',
    arg: 'LIST',
    help: 'with --git: refs to index, comma-separated (default: the current branch)',
  },
  'include-commits': { type: 'boolean', help: 'with --git: record commit metadata too' },
  depth: { type: 'string', arg: 'N', help: 'with --include-commits: commits per ref (default 50)' },
  'dry-run': {
    type: 'boolean',
    help: 'print what would be indexed (files, bytes, lines, skips, an estimate); write nothing',
  },
  ...JSON_FLAG,
  db: {
    type: 'string',
    arg: 'PATH',
    help: "the SQLite file, created if missing (default: $CAIRN_DB_PATH, else the running server's, else $CAIRN_HOME/cairn.db)",
  },
} as const;

const agentCommands = [
  command({
    path: ['agents', 'list'],
    summary: 'list the registered agents',
    flags: { ...JSON_FLAG, ...READ_DB },
    run: (positionals, values) => agents(positionals, values),
  }),
  command({
    path: ['agents', 'rotate'],
    args: NICK,
    summary: 'new password and token for an agent (shown once; the old ones stop working)',
    flags: READ_DB,
    run: (positionals, values) => agents(positionals, values),
  }),
  command({
    path: ['agents', 'revoke'],
    args: NICK,
    summary: "disable an agent's password and token (the nick stays reserved)",
    flags: READ_DB,
    run: (positionals, values) => agents(positionals, values),
  }),
];

/** Every command `cairn` runs, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  command({
    path: ['serve'],
    summary: 'serve every MCP server over HTTP, the REST API, the dashboard and IRC',
    flags: {
      host: {
        type: 'string',
        arg: 'HOST',
        help: 'HTTP bind address (default: $CAIRN_HOST, else 127.0.0.1)',
      },
      port: {
        type: 'string',
        arg: 'N',
        help: 'HTTP port, 0 picks a free one (default: $CAIRN_PORT, else 4870)',
      },
      ...SERVE_DB,
      'no-auth': { type: 'boolean', help: 'serve /api/* without a token (loopback hosts only)' },
      ...LEASE,
      ...IRC_FLAGS,
    },
    run: (_, values) => serve(values),
  }),
  ...mcpCommands,
  command({
    path: ['config'],
    summary: 'print an attach snippet for an agent runtime (--runtime and --server required)',
    flags: CONFIG_FLAGS,
    run: (_, values) => config(values),
  }),
  command({ path: ['token'], summary: 'print the API token', flags: {}, run: () => token() }),
  command({
    path: ['token', 'mint'],
    summary: "print a context token (HS256 JWT) naming an agent, signed with this server's secret",
    flags: {
      agent: { type: 'string', arg: 'NAME', help: 'the agent the token names (required)' },
      ttl: {
        type: 'string',
        arg: 'AGE',
        help: 'how long it is valid: 90s, 30m, 1h, 7d (default 1h)',
      },
    },
    run: (_, values) => tokenMint(values),
  }),
  command({
    path: ['open'],
    summary: 'a one-time dashboard login link from the running server (opens a browser)',
    flags: {
      print: { type: 'boolean', help: 'only print the link' },
      url: {
        type: 'string',
        arg: 'BASE',
        help: "the server's base URL (default: the running server's, else http://$CAIRN_HOST:$CAIRN_PORT)",
      },
    },
    run: (_, values) => open(values),
  }),
  ...approvalCommands,
  command({
    path: ['audit'],
    summary: 'page through the tool audit log, newest first',
    flags: AUDIT_FLAGS,
    run: (_, values) => audit(values),
  }),
  ...agentCommands,
  command({
    path: ['import', 'server-memory'],
    args: [{ name: 'file', help: "the official memory server's memory.jsonl" }],
    summary:
      'import @modelcontextprotocol/server-memory data into the knowledge graph (one transaction; a rerun adds nothing)',
    flags: {
      'dry-run': { type: 'boolean', help: 'count what would be added, write nothing' },
      graph: {
        type: 'string',
        arg: 'NAME',
        help: 'the graph to import into (default: default; vault:* names are reserved)',
      },
      ...JSON_FLAG,
      ...SERVE_DB,
    },
    run: ([, file], values) => importServerMemory(file ?? '', values),
  }),
  command({
    path: ['index'],
    args: [{ name: 'path', help: 'the directory to index' }],
    summary:
      'index a directory for code search (progress on stderr; exit 1 if nothing was indexed)',
    flags: INDEX_FLAGS,
    run: ([path], values) => indexCommand(path ?? '', values),
  }),
  command({
    path: ['migrate-store'],
    summary:
      'copy a SQLite store into an empty PostgreSQL database (all or nothing), then verify every table (exit 1 on a refusal or mismatch)',
    flags: {
      to: { type: 'string', arg: 'URL', help: 'the PostgreSQL database, postgres://… (required)' },
      from: {
        type: 'string',
        arg: 'FILE',
        help: "the SQLite store, never created (default: $CAIRN_DB_PATH, else the running server's, else $CAIRN_HOME/cairn.db)",
      },
      'dry-run': {
        type: 'boolean',
        help: 'count rows per table and say what would be left out; write nothing',
      },
      ...JSON_FLAG,
    },
    run: (_, values) => migrateStore(values),
  }),
];
