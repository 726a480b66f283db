// Entry point of the `cairn` command and the per-server stdio bins.
import { agents } from './agents-commands.js';
import { UsageError } from './args.js';
import { approvals, audit } from './broker-commands.js';
import { config, mcp, serve, token } from './commands.js';
import { open } from './open-command.js';

const HELP = `cairn — a shared place to work for teams of AI agents

usage:
  cairn serve [--host 127.0.0.1] [--port 4870] [--db PATH] [--no-auth] [--lease-ms N]
              [--irc-host 127.0.0.1] [--irc-port 6667 (0: off)] [--irc-tls-cert PEM --irc-tls-key PEM]
  cairn mcp tasks [--db PATH] [--read-only] [--team ID] [--agent ID]
  cairn mcp teamchat [--db PATH] [--room-team ID] [--author ID] [--delegate]
  cairn mcp tools [--db PATH] [--agent ID]      (the tool broker; --agent names the caller)
  cairn config --runtime claude-code|codex|openclaw|cursor --server tasks [--transport http|stdio]
               [--team ID] [--agent ID] [--read-only] [--url http://127.0.0.1:4870]
               [--room-team ID] [--author ID] [--delegate]   (teamchat bindings)
  cairn token        print the API token
  cairn open [--print] [--url http://127.0.0.1:4870]   one-time dashboard login link
  cairn approvals list [--status S] | show ID | approve ID [--always [--expires 7d]] | deny ID
                 | grants [--status active|expired|revoked|all] | revoke GRANT-ID   [--db PATH]
  cairn audit [--tool T] [--caller C] [--outcome O] [--since 15m|ISO|ms] [--until …]
              [--limit N] [--cursor N] [--json] [--db PATH]
  cairn mcp backplane [--db PATH] [--agent-token TOKEN]   (default: act as the operator)
  cairn agents list [--json] | rotate NICK | revoke NICK   [--db PATH]
  cairn --version

environment: CAIRN_HOME (default ~/.cairn), CAIRN_DB_PATH, CAIRN_HOST, CAIRN_PORT,
             CAIRN_LEASE_MS, CAIRN_LOG_LEVEL, CAIRN_IRC_HOST, CAIRN_IRC_PORT
`;

/** Runs one CLI invocation. Exits non-zero with a message on bad usage or failure. */
export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'mcp':
        return await mcp(rest);
      case 'config':
        return await config(rest);
      case 'token':
        return await token();
      case 'open':
        return await open(rest);
      case 'approvals':
        return await approvals(rest);
      case 'audit':
        return await audit(rest);
      case 'agents':
        return await agents(rest);
      case '--version':
      case '-v': {
        const { createRequire } = await import('node:module');
        const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
        process.stdout.write(`${pkg.version}\n`);
        return;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(HELP);
        return;
      default:
        throw new UsageError(`unknown command: ${command}\n\n${HELP}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`cairn: ${e.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`cairn: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
