// The page's one door to the REST API: same-origin fetch with the session cookie, the CSRF
// token on every write, and errors carrying the server's message.
let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiInit {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
}

/** Calls `path` and returns its JSON. @throws ApiError with the server's message. */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-cairn-csrf'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  } catch {
    throw new ApiError(0, 'cannot reach the Cairn server');
  }
  const data = (await res.json().catch(() => ({}))) as { message?: string; error?: string };
  if (!res.ok) throw new ApiError(res.status, data.message ?? data.error ?? res.statusText);
  return data as T;
}

export const errorText = (err: unknown): string =>
  err instanceof Error ? err.message : 'something went wrong';
