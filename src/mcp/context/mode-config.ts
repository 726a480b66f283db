// The operation mode of a stdio context server from its flags and environment (--mode,
// --remote, --token; CAIRN_CONTEXT_MODE, _REMOTE, _TOKEN, _TIMEOUT_MS), checked before anything
// starts: a mode that forwards without a remote, an unknown mode, a remote that is not an http
// URL and a bad timeout each stop the server with a message saying what to set.
import {
  CONTEXT_MODES,
  type ContextMode,
  isContextMode,
  MODE_MATRIX,
  needsRemote,
} from './modes.js';

/** The path a remote's context server is mounted at (`cairn serve`). */
export const CONTEXT_PATH = '/api/mcp/context';

export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
export const MAX_CONNECT_TIMEOUT_MS = 5000;

/** How a stdio context server runs. */
export interface ModeSettings {
  mode: ContextMode;
  /** The remote's context endpoint (only in the forwarding modes). */
  remote?: URL;
  /** Bearer for the remote: its API token or a context token (`cairn token mint` there). */
  token?: string;
  /** One call's bound without progress (CAIRN_CONTEXT_TIMEOUT_MS). */
  callTimeoutMs: number;
  /** Opening the remote session's bound: the call bound, at most 5 s. */
  connectTimeoutMs: number;
}

/** The flags `cairn mcp context` takes for its mode. */
export interface ModeFlags {
  mode?: string | undefined;
  remote?: string | undefined;
  token?: string | undefined;
}

/** A configuration the server cannot start with; the message says what to change. */
export class ModeConfigError extends Error {
  override name = 'ModeConfigError';
}

const forwarded = (mode: ContextMode): string =>
  Object.entries(MODE_MATRIX)
    .filter(([family]) =>
      mode === 'client-hybrid'
        ? !MODE_MATRIX[family as keyof typeof MODE_MATRIX][mode]
        : MODE_MATRIX[family as keyof typeof MODE_MATRIX][mode],
    )
    .map(([family]) => family)
    .join(', ');

/** `value` as the remote's context endpoint: a bare base URL gains /api/mcp/context. */
function remoteUrl(value: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ModeConfigError(
      `${from} must be an http(s) URL such as http://host:4870, got ${value}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModeConfigError(`${from} must be an http(s) URL, got ${url.protocol} in ${value}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') url.pathname = CONTEXT_PATH;
  else if (path !== CONTEXT_PATH) {
    throw new ModeConfigError(
      `${from} must be the server's base URL (http://host:4870) or its ${CONTEXT_PATH}, got ${value}`,
    );
  }
  return url;
}

function timeoutOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_CALL_TIMEOUT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) {
    throw new ModeConfigError(
      `CAIRN_CONTEXT_TIMEOUT_MS must be an integer from 100 to 600000 (ms), got ${raw}`,
    );
  }
  return n;
}

/**
 * The settings of `flags` over `env`. A remote without a mode means server-hybrid; explicit
 * stdio-only ignores CAIRN_CONTEXT_REMOTE but refuses --remote.
 * @throws ModeConfigError
 */
export function modeSettings(
  flags: ModeFlags,
  env: Readonly<Record<string, string | undefined>>,
): ModeSettings {
  const modeFrom = flags.mode !== undefined ? '--mode' : 'CAIRN_CONTEXT_MODE';
  const rawMode = flags.mode ?? env['CAIRN_CONTEXT_MODE'];
  const remoteFrom = flags.remote !== undefined ? '--remote' : 'CAIRN_CONTEXT_REMOTE';
  const rawRemote = flags.remote ?? env['CAIRN_CONTEXT_REMOTE'];
  const remoteGiven = rawRemote !== undefined && rawRemote.trim() !== '';
  if (rawMode !== undefined && !isContextMode(rawMode)) {
    throw new ModeConfigError(
      `${modeFrom} must be one of ${CONTEXT_MODES.join(', ')}, got ${rawMode}`,
    );
  }
  const mode: ContextMode = rawMode ?? (remoteGiven ? 'server-hybrid' : 'stdio-only');
  const callTimeoutMs = timeoutOf(env['CAIRN_CONTEXT_TIMEOUT_MS']);
  const settings: ModeSettings = {
    mode,
    callTimeoutMs,
    connectTimeoutMs: Math.min(MAX_CONNECT_TIMEOUT_MS, callTimeoutMs),
  };
  const token = flags.token ?? env['CAIRN_CONTEXT_TOKEN'];
  if (token !== undefined && token !== '') settings.token = token;
  if (!needsRemote(mode)) {
    if (flags.remote !== undefined) {
      throw new ModeConfigError(
        '--remote has no use in stdio-only mode (every family runs here): drop it, or pass --mode client-hybrid or server-hybrid',
      );
    }
    return settings;
  }
  if (!remoteGiven) {
    throw new ModeConfigError(
      `${mode} mode forwards the ${forwarded(mode)} families to a shared cairn serve, and no remote is set: pass --remote URL (e.g. http://host:4870) or set CAIRN_CONTEXT_REMOTE`,
    );
  }
  settings.remote = remoteUrl(rawRemote, remoteFrom);
  return settings;
}
