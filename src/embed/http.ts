// One JSON POST with a deadline and bounded retries, for the HTTP providers. Errors name the
// provider and a credential-free URL; secrets are scrubbed from anything the server echoes.
import { EmbedError } from './errors.js';

export interface PostJsonOptions {
  /** Provider name for messages, e.g. `ollama`. */
  label: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  /** Strings that must never appear in an error message (API keys). */
  secrets: readonly string[];
}

const MAX_RETRY_DELAY_MS = 10_000;
const SNIPPET_CHARS = 300;

/** The URL without user info or query string, for messages. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.href;
  } catch {
    return '(invalid url)';
  }
}

function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== '') out = out.split(secret).join('[redacted]');
  return out;
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

/** Honours `Retry-After` (seconds or HTTP date), else exponential backoff with jitter. */
function retryDelay(attempt: number, baseMs: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  const hinted = Number.isFinite(seconds)
    ? seconds * 1000
    : retryAfter === null
      ? NaN
      : Date.parse(retryAfter) - Date.now();
  const backoff = baseMs * 2 ** attempt * (0.5 + Math.random() / 2);
  const delay = Number.isFinite(hinted) && hinted >= 0 ? hinted : backoff;
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { ok: true; value: unknown } | { ok: false; error: EmbedError; wait: number };

const timedOut = (options: PostJsonOptions, where: string): EmbedError =>
  new EmbedError(
    'timeout',
    `embed: ${options.label} did not answer within ${options.timeoutMs} ms (${where})`,
  );

/** Sends the request; a connection failure comes back as an error value (it may be retried). */
async function send(options: PostJsonOptions, where: string): Promise<Response | EmbedError> {
  try {
    return await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    if (isTimeout(err)) throw timedOut(options, where);
    const detail = scrub(causeText(err), options.secrets);
    return new EmbedError(
      'unreachable',
      `embed: cannot reach ${options.label} at ${where}: ${detail}`,
    );
  }
}

/** Reads the answer: JSON on success, a retryable outcome on 429/5xx, a throw otherwise. */
async function receive(
  options: PostJsonOptions,
  response: Response,
  where: string,
  n: number,
): Promise<Outcome> {
  const text = await response.text();
  if (response.ok) return { ok: true, value: parseJson(text, options.label, where) };
  const snippet = scrub(text.slice(0, SNIPPET_CHARS), options.secrets).trim();
  const error = new EmbedError(
    'http',
    `embed: ${options.label} answered HTTP ${response.status} at ${where}${snippet === '' ? '' : `: ${snippet}`}`,
    { status: response.status },
  );
  if (!retryable(response.status)) throw error;
  const wait = retryDelay(n, options.retryBaseMs, response.headers.get('retry-after'));
  return { ok: false, error, wait };
}

/** One request, attempt number `n` (from 0). */
async function attempt(options: PostJsonOptions, n: number, where: string): Promise<Outcome> {
  const sent = await send(options, where);
  if (sent instanceof EmbedError) {
    return { ok: false, error: sent, wait: retryDelay(n, options.retryBaseMs, null) };
  }
  try {
    return await receive(options, sent, where, n);
  } catch (err) {
    throw isTimeout(err) ? timedOut(options, where) : err;
  }
}

function parseJson(text: string, label: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EmbedError('malformed', `embed: ${label} answered with invalid JSON at ${where}`);
  }
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

/** fetch wraps the useful part (`ECONNREFUSED …`) in `cause`. */
function causeText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return err.message;
}

/**
 * POSTs `body` as JSON and parses the JSON answer. Retries 429, 5xx and connection failures up to
 * `maxRetries` times with backoff (honouring `Retry-After`, at most 10 s a wait); a timeout or
 * any other status fails at once.
 * @throws EmbedError `timeout`, `unreachable`, `http` (with `status`) or `malformed`.
 */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const where = displayUrl(options.url);
  for (let n = 0; ; n++) {
    const outcome = await attempt(options, n, where);
    if (outcome.ok) return outcome.value;
    if (n >= options.maxRetries) {
      const { reason, message, status } = outcome.error;
      const tries = `${n + 1} attempt${n === 0 ? '' : 's'}`;
      throw new EmbedError(
        reason,
        `${message} (gave up after ${tries})`,
        status === undefined ? undefined : { status },
      );
    }
    await sleep(outcome.wait);
  }
}
