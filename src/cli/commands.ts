// The `cairn` subcommands: serve, mcp <server>, config, token. Each builds the core itself and
// calls domain services or façades directly. Flags and help come from the command table
// (command-table.ts); `serve` records where it listens in $CAIRN_HOME/serve.json.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { type Core, createCore } from '../core/index.js';
import {
  apiTokenPath,
  type AttachContext,
  attachInput,
  createHttpService,
  renderAttach,
  ensureApiToken,
  ensureServerSecret,
} from '../http/index.js';
import { isMcpServerName, MCP_SERVER_NAMES, MCP_SERVERS } from '../mcp/index.js';
import { cairnHome, shareableDbUrl } from '../store/index.js';
import { vaultWatchFromEnv } from '../vault/index.js';
import { intFlag, UsageError } from './args.js';
import { checkConfigBinding, checkedGraph, graphChoice } from './binding-flags.js';
import { contextServer as contextServerOf, contextSettings } from './context-modes.js';
import { type ConfigDb, configDb } from './database.js';
import { type IrcFlagValues, startIrc } from './irc-serve.js';
import { startLeaseSweeper } from './maintenance.js';
import { serveBanner } from './serve-banner.js';
import {
  removeServeRecord,
  resolveServerUrl,
  type ServeRecord,
  writeServeRecord,
} from './serve-record.js';
import { startServeVaultWatch } from './vault-watch.js';

const out = (text: string): void => void process.stdout.write(text);
const err = (text: string): void => void process.stderr.write(text);

function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 5000).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

export interface ServeFlags extends IrcFlagValues {
  host?: string | undefined;
  port?: string | undefined;
  db?: string | undefined;
  'no-auth'?: boolean | undefined;
  'lease-ms'?: string | undefined;
}

/** `cairn serve`: HTTP (MCP, REST, dashboard) and IRC over one core, until SIGINT/SIGTERM. */
export async function serve(values: ServeFlags): Promise<void> {
  const host = values.host ?? process.env['CAIRN_HOST'] ?? '127.0.0.1';
  const port = intFlag(values.port ?? process.env['CAIRN_PORT'], '--port', 0, 65535) ?? 4870;
  const home = cairnHome();
  const apiToken = values['no-auth'] === true ? null : ensureApiToken(home);
  const apiTokenFile = apiTokenPath(home);
  const secret = ensureServerSecret(home);
  const vaultWatch = vaultWatchFromEnv(process.env);
  const core = await createCore({
    dbPath: values.db,
    leaseMs: intFlag(values['lease-ms'], '--lease-ms', 1000, 86_400_000),
    autoEmbed: true,
  });
  let http;
  try {
    const replicaId = process.env['CAIRN_REPLICA_ID'];
    http = createHttpService(core, { host, port, apiToken, secret, apiTokenFile, replicaId });
  } catch (e) {
    await core.close();
    throw new UsageError((e as Error).message);
  }
  const addr = await http.listen();
  const irc = await startIrc(core, values).catch(async (e: unknown) => {
    await http.close();
    await core.close();
    throw e;
  });
  const stopSweep = startLeaseSweeper(core);
  // Execution provenance is discovered once, at start; every context session shares it.
  void core.provenance();
  // The model loads in the background after the port is open; the backlog embeds after it.
  core.embedder?.warm();
  core.embedWorker?.wake();
  core.codeEmbedWorker?.wake();
  // Collections indexed with `watch: true` are kept fresh while this process serves.
  void core.codeIndex
    .resumeWatches()
    .then((names) => names.length > 0 && core.logger.info({ names }, 'watching collections'))
    .catch((err: unknown) => core.logger.warn({ err }, 'could not resume collection watches'));
  // CAIRN_VAULT_WATCH: synced vault collections are re-synced when their files change.
  const vaultWatcher = startServeVaultWatch(core, vaultWatch);
  // Handlers first, banner after: whoever reads the banner may signal at once.
  onSignals(async () => {
    stopSweep();
    (await vaultWatcher)?.close();
    removeServeRecord(home, process.pid);
    await irc?.gateway.close();
    await http.close();
    await core.close();
    core.logger.info('cairn stopped');
  });
  await announce(core, home, { ...addr, irc: irc?.url ?? null, auth: apiToken !== null });
}

/** Records where the server listens (serve.json), logs it, and prints the banner. */
async function announce(
  core: Core,
  home: string,
  at: Pick<ServeRecord, 'url' | 'host' | 'port' | 'irc' | 'auth'>,
): Promise<void> {
  const record: ServeRecord = {
    ...at,
    pid: process.pid,
    db: core.dbUrl?.url ?? core.dbPath,
    version: core.version,
    started: new Date().toISOString(),
  };
  writeServeRecord(home, record);
  core.logger.info({ url: at.url, db: record.db, auth: at.auth }, 'cairn serving');
  out(await serveBanner({ record, home, embedder: core.embedder?.model ?? null }));
}

/** The flags `cairn mcp <server>` may get (each server takes those of its binding). */
export interface McpFlags {
  db?: string | undefined;
  'read-only'?: boolean | undefined;
  tenant?: string | undefined;
  team?: string | undefined;
  agent?: string | undefined;
  'room-team'?: string | undefined;
  author?: string | undefined;
  delegate?: boolean | undefined;
  'lease-ms'?: string | undefined;
  'agent-token'?: string | undefined;
  graph?: string | undefined;
  mode?: string | undefined;
  remote?: string | undefined;
  token?: string | undefined;
}

/** `cairn mcp <server>`: one MCP server over stdio until stdin ends or a signal. */
export async function mcp(positionals: readonly string[], values: McpFlags): Promise<void> {
  const name = positionals[0];
  if (name === undefined || !isMcpServerName(name)) {
    throw new UsageError(
      `usage: cairn mcp <${MCP_SERVER_NAMES.join('|')}> [--db PATH] [--read-only] [--team ID] [--agent ID] [--room-team ID --author ID [--delegate]]`,
    );
  }
  const memoryServer = name === 'memory';
  const contextServer = name === 'context';
  const vaultServer = name === 'vault';
  // A context mode or a graph name that cannot start stops here, before the database opens.
  const modes = contextServer ? contextSettings(values) : undefined;
  const graphName = name === 'graph' ? graphChoice(values.graph, process.env) : undefined;
  const core = await createCore({
    dbPath: values.db,
    leaseMs: intFlag(values['lease-ms'], '--lease-ms', 1000, 86_400_000),
    autoEmbed: memoryServer || contextServer || vaultServer,
  });
  const context = modes === undefined ? undefined : contextServerOf(core, modes);
  const server =
    context?.server ??
    MCP_SERVERS[name].create(core, {
      readOnly: values['read-only'] === true,
      scopeTenantId: values.tenant,
      scopeTeamId: values.team,
      scopeAgentId: values.agent,
      roomTeamId: values['room-team'],
      postAuthorAgentId: values.author,
      delegate: values.delegate === true,
      agentToken: values['agent-token'] ?? process.env['CAIRN_AGENT_TOKEN'],
      graphName,
    });
  const stopSweep = startLeaseSweeper(core);
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (closing ??= (async () => {
      stopSweep();
      await server.close().catch(() => undefined);
      await context?.close();
      await core.close();
    })());
  process.stdin.once('end', () => void stop().then(() => process.exit(0)));
  onSignals(stop);
  await server.connect(transport);
  if (memoryServer) {
    core.embedder?.warm();
    core.embedWorker?.wake();
  }
  if (contextServer) {
    // search_code fuses chunk vectors: the model warms and the chunk backlog embeds meanwhile.
    core.embedder?.warm();
    core.codeEmbedWorker?.wake();
  }
}

export interface ConfigFlags {
  runtime?: string | undefined;
  server?: string | undefined;
  transport?: string | undefined;
  tenant?: string | undefined;
  team?: string | undefined;
  agent?: string | undefined;
  'read-only'?: boolean | undefined;
  'room-team'?: string | undefined;
  author?: string | undefined;
  delegate?: boolean | undefined;
  graph?: string | undefined;
  url?: string | undefined;
  'no-auth'?: boolean | undefined;
  db?: string | undefined;
}

/** What a stdio snippet names: the file, or the PostgreSQL URL without its password. */
const attachDb = (db: ConfigDb): Pick<AttachContext, 'dbPath' | 'dbUrl'> => ({
  dbPath: db.dbPath,
  dbUrl: db.url === undefined ? null : shareableDbUrl(db.url),
});

/**
 * `cairn config`: an attach snippet for the running server (serve.json), else the default URL
 * (saying so on stderr). `--server` is required; flags the server does not bind are refused.
 */
export function config(values: ConfigFlags): Promise<void> {
  checkConfigBinding(values);
  if (values.graph !== undefined) checkedGraph(values.graph, '--graph');
  const parsed = attachInput.safeParse({
    runtime: values.runtime,
    server: values.server,
    transport: values.transport,
    scopeTenantId: values.tenant,
    scopeTeamId: values.team,
    scopeAgentId: values.agent,
    readOnly: values['read-only'] === true ? '1' : undefined,
    roomTeamId: values['room-team'],
    postAuthorAgentId: values.author,
    delegate: values.delegate === true ? '1' : undefined,
    graphName: values.graph,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--${String(issue?.path[0] ?? 'runtime')}: ${issue?.message ?? 'invalid'} (usage: cairn config --runtime claude-code|codex|openclaw|cursor --server tasks --transport http|stdio)`,
    );
  }
  const home = cairnHome();
  const server = resolveServerUrl(values.url, home);
  const noAuth = values['no-auth'] === true || server.record?.auth === false;
  const snippet = renderAttach(parsed.data, {
    baseUrl: server.url,
    apiToken: noAuth ? null : ensureApiToken(home),
    secret: ensureServerSecret(home),
    ...attachDb(configDb(values.db, server.record)),
  });
  err(`# ${snippet.runtime} · ${snippet.server} · ${snippet.transport} → add to ${snippet.file}\n`);
  if (server.assumed !== undefined && snippet.transport === 'http') err(`# ${server.assumed}\n`);
  out(snippet.snippet);
  if (snippet.note !== undefined) err(`# ${snippet.note}\n`);
  return Promise.resolve();
}

export function token(): Promise<void> {
  out(`${ensureApiToken(cairnHome())}\n`);
  return Promise.resolve();
}
