// One JSON POST for a query-time model stage: a single attempt with a hard deadline (a query
// never waits on retries), and a short, credential-free reason on failure that the stage
// report can show. Never called on import.

/** Why a provider call failed, in words fit for `stages` (no URL credentials, no API key). */
export class StageProviderError extends Error {
  override readonly name = 'StageProviderError';
}

export interface StagePost {
  url: string;
  body: unknown;
  apiKey?: string | undefined;
  timeoutMs: number;
}

const isTimeout = (err: unknown): boolean =>
  err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');

function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause;
  if (cause instanceof Error) return (cause as NodeJS.ErrnoException).code ?? cause.message;
  return err.message;
}

function scrub(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * POSTs `body` as JSON and returns the parsed answer.
 * @throws StageProviderError `timed out after N ms`, `unreachable (…)`, `HTTP <status>` or
 *   `answered with invalid JSON`.
 */
export async function postStage(post: StagePost): Promise<unknown> {
  const signal = AbortSignal.timeout(post.timeoutMs);
  const timedOut = new StageProviderError(`timed out after ${post.timeoutMs} ms`);
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(post.apiKey === undefined ? {} : { authorization: `Bearer ${post.apiKey}` }),
      },
      body: JSON.stringify(post.body),
      signal,
    });
  } catch (err) {
    if (isTimeout(err)) throw timedOut;
    throw new StageProviderError(`unreachable (${scrub(causeOf(err), post.apiKey)})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    if (isTimeout(err)) throw timedOut;
    throw new StageProviderError(`answer cut off (${scrub(causeOf(err), post.apiKey)})`);
  }
  if (!response.ok) throw new StageProviderError(`HTTP ${response.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new StageProviderError('answered with invalid JSON');
  }
}

/** The reason of a failed stage call, for the report (a non-provider error says only its kind). */
export function failureReason(err: unknown): string {
  if (err instanceof StageProviderError) return err.message;
  return err instanceof Error ? `failed (${err.name})` : 'failed';
}
