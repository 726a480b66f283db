// `cairn token mint`: a context token (HS256 JWT, src/auth) naming an agent, signed with this
// CAIRN_HOME's server secret. The token goes to stdout alone, so it can be captured.
import {
  agentNameProblem,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_TOKEN_TTL_SECONDS,
  mintContextToken,
  parseTtl,
} from '../auth/index.js';
import { ensureServerSecret } from '../http/index.js';
import { cairnHome } from '../store/index.js';
import { UsageError } from './args.js';

/**
 * `cairn token mint --agent NAME [--ttl 1h]`: a context token for NAME signed with this
 * CAIRN_HOME's server secret (created if missing), on stdout; who and until when on stderr.
 */
export async function tokenMint(values: {
  agent?: string | undefined;
  ttl?: string | undefined;
}): Promise<void> {
  if (values.agent === undefined)
    throw new UsageError('--agent NAME is required (the agent the token names)');
  const problem = agentNameProblem(values.agent);
  if (problem !== undefined) throw new UsageError(`--agent ${problem}`);
  const ttl = values.ttl === undefined ? DEFAULT_TOKEN_TTL_SECONDS : parseTtl(values.ttl);
  if (!(ttl >= 1 && ttl <= MAX_TOKEN_TTL_SECONDS)) {
    throw new UsageError(
      `--ttl must be a duration like 90s, 30m, 1h or 7d (at most 366d), got ${values.ttl ?? ''}`,
    );
  }
  const now = Date.now();
  const minted = await mintContextToken({
    secret: ensureServerSecret(cairnHome()),
    agent: values.agent,
    ttlSeconds: ttl,
    now,
  });
  process.stderr.write(
    `# context token for agent ${values.agent}, valid until ${new Date(now + ttl * 1000).toISOString()}\n`,
  );
  process.stdout.write(`${minted}\n`);
}
