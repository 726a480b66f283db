// Entry point of the `cairn` command and the per-server stdio bins: parses argv with the
// program built from the command table and maps failures to exit codes (2 usage, 1 failure).
import { createRequire } from 'node:module';

import { CommanderError } from 'commander';

import { UsageError } from './args.js';
import { COMMANDS, GROUPS } from './command-table.js';
import { buildProgram, topLevelHelp } from './program.js';

function version(): string {
  const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
  return pkg.version;
}

/** Runs one CLI invocation. Exits non-zero with a message on bad usage (2) or failure (1). */
export async function main(argv: string[]): Promise<void> {
  const io = {
    writeOut: (text: string) => void process.stdout.write(text),
    writeErr: (text: string) => void process.stderr.write(text),
  };
  try {
    if (argv.length === 0) return io.writeOut(topLevelHelp(COMMANDS));
    await buildProgram(COMMANDS, GROUPS, version(), io).parseAsync(argv, { from: 'user' });
  } catch (e) {
    // Commander has already printed help, the version, or `cairn: <what is wrong>`.
    if (e instanceof CommanderError) {
      if (e.exitCode === 0) return;
      process.exit(2);
    }
    if (e instanceof UsageError) {
      process.stderr.write(`cairn: ${e.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`cairn: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
