// `cairn serve`'s IRC listener: starting the gateway beside HTTP from the --irc-* flags. The
// default port being taken (another cairn, a local ircd) only disables IRC with a warning; a
// port asked for explicitly that cannot be bound is an error.
import { readFileSync } from 'node:fs';

import type { Core } from '../core/index.js';
import { createIrcGateway, type IrcGateway } from '../irc/index.js';
import { intFlag, UsageError } from './args.js';

export const DEFAULT_IRC_PORT = 6667;

/** The --irc-* flag values (the command table declares them). */
export interface IrcFlagValues {
  'irc-host'?: string | undefined;
  'irc-port'?: string | undefined;
  'irc-tls-cert'?: string | undefined;
  'irc-tls-key'?: string | undefined;
}

function readTls(values: IrcFlagValues): { cert: Buffer; key: Buffer } | undefined {
  const certPath = values['irc-tls-cert'];
  const keyPath = values['irc-tls-key'];
  if (certPath === undefined && keyPath === undefined) return undefined;
  if (certPath === undefined || keyPath === undefined) {
    throw new UsageError('--irc-tls-cert and --irc-tls-key go together');
  }
  try {
    return { cert: readFileSync(certPath), key: readFileSync(keyPath) };
  } catch (err) {
    throw new UsageError(`cannot read the IRC TLS files: ${(err as Error).message}`);
  }
}

/**
 * Starts the IRC gateway unless the port is 0. Returns it with its address (irc:// or
 * ircs://), or undefined when IRC is off.
 * @throws UsageError for bad flags or an explicit port that cannot be bound.
 */
export async function startIrc(
  core: Core,
  values: IrcFlagValues,
): Promise<{ gateway: IrcGateway; url: string } | undefined> {
  const raw = values['irc-port'] ?? process.env['CAIRN_IRC_PORT'];
  const port = intFlag(raw, '--irc-port', 0, 65535) ?? DEFAULT_IRC_PORT;
  if (port === 0) return undefined;
  const host = values['irc-host'] ?? process.env['CAIRN_IRC_HOST'] ?? '127.0.0.1';
  const tls = readTls(values);
  const gateway = createIrcGateway(core, { host, port, tls });
  try {
    const addr = await gateway.listen();
    const scheme = addr.tls ? 'ircs' : 'irc';
    return { gateway, url: `${scheme}://${addr.host}:${addr.port}` };
  } catch (err) {
    await gateway.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (raw === undefined && code === 'EADDRINUSE') {
      core.logger.warn({ port }, 'IRC port in use; IRC disabled (set --irc-port)');
      return undefined;
    }
    throw new UsageError(`cannot listen for IRC on ${host}:${port}: ${(err as Error).message}`);
  }
}
