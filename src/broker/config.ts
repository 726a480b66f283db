// Broker settings and their environment variables. Read once when the core is built; a bad
// value fails loudly instead of silently weakening a policy.

export interface BrokerConfig {
  /** How long a pending approval waits for a human before it expires. */
  approvalTtlMs: number;
  /** How often a waiting call re-reads its approval row. */
  approvalPollMs: number;
  /** How often a waiting call reports progress (MCP progress notifications). */
  progressEveryMs: number;
  /**
   * How long a waiting call's lease on its pending approval lasts; it renews it every third of
   * that. A decider takes a lapsed lease to mean the waiter is gone and cancels instead.
   */
  approvalLeaseMs: number;
  /** Executor timeout. */
  toolTimeoutMs: number;
  /** Result text budget in UTF-8 bytes; longer output is cut with a visible marker. */
  outputBytes: number;
  /** Callers refused outright (`blocked_caller`). */
  blockedCallers: readonly string[];
  /** Policy denials for one caller + tool within the window that open the circuit. */
  circuitThreshold: number;
  circuitWindowMs: number;
  circuitCooldownMs: number;
  /** Tavily search API base URL (tests point it at a loopback stub). */
  tavilyUrl: string;
}

export const DEFAULT_BROKER_CONFIG: BrokerConfig = {
  approvalTtlMs: 5 * 60_000,
  approvalPollMs: 250,
  progressEveryMs: 1000,
  approvalLeaseMs: 15_000,
  toolTimeoutMs: 15_000,
  outputBytes: 16_384,
  blockedCallers: [],
  circuitThreshold: 5,
  circuitWindowMs: 10 * 60_000,
  circuitCooldownMs: 5 * 60_000,
  tavilyUrl: 'https://api.tavily.com',
};

type Env = Readonly<Record<string, string | undefined>>;

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  }
  return n;
}

/** Builds the broker config from CAIRN_* variables, defaults for anything unset. */
export function brokerConfigFromEnv(env: Env): BrokerConfig {
  const d = DEFAULT_BROKER_CONFIG;
  const blocked = (env['CAIRN_TOOLS_BLOCKED_CALLERS'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return {
    approvalTtlMs: positiveInt(env, 'CAIRN_APPROVAL_TTL_MS', d.approvalTtlMs),
    approvalPollMs: positiveInt(env, 'CAIRN_APPROVAL_POLL_MS', d.approvalPollMs),
    progressEveryMs: positiveInt(env, 'CAIRN_APPROVAL_PROGRESS_MS', d.progressEveryMs),
    approvalLeaseMs: positiveInt(env, 'CAIRN_APPROVAL_LEASE_MS', d.approvalLeaseMs),
    toolTimeoutMs: positiveInt(env, 'CAIRN_TOOLS_TIMEOUT_MS', d.toolTimeoutMs),
    outputBytes: positiveInt(env, 'CAIRN_TOOLS_OUTPUT_BYTES', d.outputBytes),
    blockedCallers: blocked,
    circuitThreshold: positiveInt(env, 'CAIRN_CIRCUIT_THRESHOLD', d.circuitThreshold),
    circuitWindowMs: positiveInt(env, 'CAIRN_CIRCUIT_WINDOW_MS', d.circuitWindowMs),
    circuitCooldownMs: positiveInt(env, 'CAIRN_CIRCUIT_COOLDOWN_MS', d.circuitCooldownMs),
    tavilyUrl: (env['CAIRN_TAVILY_URL'] ?? '').trim() || d.tavilyUrl,
  };
}
