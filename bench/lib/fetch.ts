// A `fetch` for the bench's HTTP clients that gives each POST its own AbortSignal. The SDK's
// StreamableHTTPClientTransport passes one shared signal to every request, and Node's fetch
// (undici) adds an abort listener to it per request that is only removed on GC: after 1,500
// calls each request emits a MaxListenersExceededWarning and walks a long listener list,
// which slows the client far more than either server. See samanhappy/mcphub#1062.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Bridges the shared signal to a private one while the request is in flight, then detaches.
 * A response body still streaming after that no longer follows the shared signal, which is
 * fine here: clients are closed only when idle. GET (the long-lived SSE stream) is untouched.
 */
export const isolatedFetch: FetchLike = async (url, init) => {
  const shared = init?.signal;
  if (shared === undefined || shared === null || init?.method === 'GET') return fetch(url, init);
  const own = new AbortController();
  const forward = (): void => own.abort(shared.reason);
  if (shared.aborted) forward();
  else shared.addEventListener('abort', forward, { once: true });
  try {
    return await fetch(url, { ...init, signal: own.signal });
  } finally {
    shared.removeEventListener('abort', forward);
  }
};
