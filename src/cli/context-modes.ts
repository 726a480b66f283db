// `cairn mcp context` in an operation mode: the settings from --mode/--remote/--token and the
// CAIRN_CONTEXT_* variables (a bad one stops the command before anything opens), then the
// server with its remote. The stdio command itself is commands.ts's `mcp`.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import type { Core } from '../core/index.js';
import {
  createContextServer,
  createRemote,
  ModeConfigError,
  type ModeSettings,
  modeSettings,
} from '../mcp/index.js';
import { UsageError } from './args.js';

/** The mode flags of `cairn mcp context` (command-table.ts lists them). */
export const CONTEXT_MODE_FLAGS = {
  mode: {
    type: 'string',
    arg: 'MODE',
    help: 'context: where families run (default: $CAIRN_CONTEXT_MODE, else server-hybrid with a remote, else stdio-only)',
    choices: ['stdio-only', 'client-hybrid', 'server-hybrid'],
  },
  remote: {
    type: 'string',
    arg: 'URL',
    help: 'context: the shared cairn serve to forward to, e.g. http://host:4870 (default: $CAIRN_CONTEXT_REMOTE)',
  },
  token: {
    type: 'string',
    arg: 'TOKEN',
    help: 'context: bearer for the remote, its API token or a `cairn token mint` token (default: $CAIRN_CONTEXT_TOKEN)',
  },
} as const;

/**
 * The settings of `values` over the environment.
 * @throws UsageError naming the flag or variable to fix.
 */
export function contextSettings(
  values: { mode?: string | undefined; remote?: string | undefined; token?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModeSettings {
  try {
    return modeSettings(values, env);
  } catch (err) {
    if (err instanceof ModeConfigError) throw new UsageError(err.message);
    throw err;
  }
}

/** The context server `settings` describe, and how to close its remote. */
export function contextServer(
  core: Core,
  settings: ModeSettings,
): { server: Server; close(): Promise<void> } {
  const remote =
    settings.remote === undefined
      ? undefined
      : createRemote({
          url: settings.remote,
          token: settings.token,
          connectTimeoutMs: settings.connectTimeoutMs,
          callTimeoutMs: settings.callTimeoutMs,
          version: core.version,
          logger: core.logger,
        });
  if (remote !== undefined) {
    core.logger.info({ mode: settings.mode, remote: remote.url }, 'context server forwards');
  }
  return {
    server: createContextServer(core, { mode: settings.mode, remote }),
    close: async () => remote?.close(),
  };
}
