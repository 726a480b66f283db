// The `cairn` subcommands: serve, mcp <server>, config, token. Each builds the core itself and
// calls domain services or façades directly.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createCore } from '../core/index.js';
import {
  attachInput,
  createHttpService,
  renderAttach,
  ensureApiToken,
  ensureServerSecret,
} from '../http/index.js';
import { isMcpServerName, MCP_SERVER_NAMES, MCP_SERVERS } from '../mcp/index.js';
import { cairnHome, resolveDbPath } from '../store/index.js';
import { intFlag, parse, UsageError } from './args.js';
import { IRC_FLAGS, startIrc } from './irc-serve.js';
import { startLeaseSweeper } from './maintenance.js';

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

export async function serve(argv: string[]): Promise<void> {
  const { values } = parse(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    db: { type: 'string' },
    'no-auth': { type: 'boolean' },
    'lease-ms': { type: 'string' },
    ...IRC_FLAGS,
  });
  const host = values.host ?? process.env['CAIRN_HOST'] ?? '127.0.0.1';
  const port = intFlag(values.port ?? process.env['CAIRN_PORT'], '--port', 0, 65535) ?? 4870;
  const home = cairnHome();
  const apiToken = values['no-auth'] === true ? null : ensureApiToken(home);
  const secret = ensureServerSecret(home);
  const core = await createCore({
    dbPath: values.db,
    leaseMs: intFlag(values['lease-ms'], '--lease-ms', 1000, 86_400_000),
    autoEmbed: true,
  });
  let http;
  try {
    http = createHttpService(core, { host, port, apiToken, secret });
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
  // The model loads in the background after the port is open; the backlog embeds after it.
  core.embedder?.warm();
  core.embedWorker?.wake();
  // Handlers first, banner after: whoever reads the banner may signal at once.
  onSignals(async () => {
    stopSweep();
    await irc?.gateway.close();
    await http.close();
    await core.close();
    core.logger.info('cairn stopped');
  });
  core.logger.info({ url: addr.url, db: core.dbPath, auth: apiToken !== null }, 'cairn serving');
  out(`cairn ${core.version} listening on ${addr.url}\n`);
  out(`  MCP: ${MCP_SERVER_NAMES.map((n) => `${addr.url}/api/mcp/${n}`).join(' ')}\n`);
  out(irc?.banner ?? '  IRC: off\n');
  out(`  database: ${core.dbPath}\n`);
  out(apiToken === null ? '  auth: disabled (--no-auth)\n' : `  API token: ${home}/api_token\n`);
}

export async function mcp(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {
    db: { type: 'string' },
    'read-only': { type: 'boolean' },
    tenant: { type: 'string' },
    team: { type: 'string' },
    agent: { type: 'string' },
    'room-team': { type: 'string' },
    author: { type: 'string' },
    delegate: { type: 'boolean' },
    'lease-ms': { type: 'string' },
    'agent-token': { type: 'string' },
  });
  const name = positionals[0];
  if (name === undefined || !isMcpServerName(name)) {
    throw new UsageError(
      `usage: cairn mcp <${MCP_SERVER_NAMES.join('|')}> [--db PATH] [--read-only] [--team ID] [--agent ID] [--room-team ID --author ID [--delegate]]`,
    );
  }
  const memoryServer = name === 'memory';
  const core = await createCore({
    dbPath: values.db,
    leaseMs: intFlag(values['lease-ms'], '--lease-ms', 1000, 86_400_000),
    autoEmbed: memoryServer,
  });
  const server = MCP_SERVERS[name].create(core, {
    readOnly: values['read-only'] === true,
    scopeTenantId: values.tenant,
    scopeTeamId: values.team,
    scopeAgentId: values.agent,
    roomTeamId: values['room-team'],
    postAuthorAgentId: values.author,
    delegate: values.delegate === true,
    agentToken: values['agent-token'] ?? process.env['CAIRN_AGENT_TOKEN'],
  });
  const stopSweep = startLeaseSweeper(core);
  const transport = new StdioServerTransport();
  let closing: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (closing ??= (async () => {
      stopSweep();
      await server.close().catch(() => undefined);
      await core.close();
    })());
  process.stdin.once('end', () => void stop().then(() => process.exit(0)));
  onSignals(stop);
  await server.connect(transport);
  if (memoryServer) {
    core.embedder?.warm();
    core.embedWorker?.wake();
  }
}

export function config(argv: string[]): Promise<void> {
  const { values } = parse(argv, {
    runtime: { type: 'string' },
    server: { type: 'string' },
    transport: { type: 'string' },
    tenant: { type: 'string' },
    team: { type: 'string' },
    agent: { type: 'string' },
    'read-only': { type: 'boolean' },
    'room-team': { type: 'string' },
    author: { type: 'string' },
    delegate: { type: 'boolean' },
    url: { type: 'string' },
    'no-auth': { type: 'boolean' },
    db: { type: 'string' },
  });
  const parsed = attachInput.safeParse({
    runtime: values.runtime,
    server: values.server ?? 'tasks',
    transport: values.transport,
    scopeTenantId: values.tenant,
    scopeTeamId: values.team,
    scopeAgentId: values.agent,
    readOnly: values['read-only'] === true ? '1' : undefined,
    roomTeamId: values['room-team'],
    postAuthorAgentId: values.author,
    delegate: values.delegate === true ? '1' : undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `--${String(issue?.path[0] ?? 'runtime')}: ${issue?.message ?? 'invalid'} (usage: cairn config --runtime claude-code|codex|openclaw|cursor --server tasks --transport http|stdio)`,
    );
  }
  const home = cairnHome();
  const port = process.env['CAIRN_PORT'] ?? '4870';
  const baseUrl = (
    values.url ?? `http://${process.env['CAIRN_HOST'] ?? '127.0.0.1'}:${port}`
  ).replace(/\/+$/, '');
  const snippet = renderAttach(parsed.data, {
    baseUrl,
    apiToken: values['no-auth'] === true ? null : ensureApiToken(home),
    secret: ensureServerSecret(home),
    dbPath: resolveDbPath(values.db),
  });
  err(`# ${snippet.runtime} · ${snippet.server} · ${snippet.transport} → add to ${snippet.file}\n`);
  out(snippet.snippet);
  if (snippet.note !== undefined) err(`# ${snippet.note}\n`);
  return Promise.resolve();
}

export function token(): Promise<void> {
  out(`${ensureApiToken(cairnHome())}\n`);
  return Promise.resolve();
}
