// Entry point of the `cairn` command and the per-server stdio bins.
import { UsageError } from './args.js';
import { config, mcp, serve, token } from './commands.js';

const HELP = `cairn — a shared place to work for teams of AI agents

usage:
  cairn serve [--host 127.0.0.1] [--port 4870] [--db PATH] [--no-auth] [--lease-ms N]
  cairn mcp tasks [--db PATH] [--read-only] [--team ID] [--agent ID]
  cairn config --runtime claude-code|codex|openclaw|cursor --server tasks [--transport http|stdio]
               [--team ID] [--agent ID] [--read-only] [--url http://127.0.0.1:4870]
  cairn token        print the API token
  cairn --version

environment: CAIRN_HOME (default ~/.cairn), CAIRN_DB_PATH, CAIRN_HOST, CAIRN_PORT,
             CAIRN_LEASE_MS, CAIRN_LOG_LEVEL
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
