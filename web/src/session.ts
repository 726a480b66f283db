// The login state of the page: trades a `/login#code=…` link for a session cookie, or asks
// the server who we are. Keeps the CSRF token for api.ts.
import { useEffect, useState } from 'react';

import { api, ApiError, errorText, setCsrfToken } from './api.js';

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'anonymous'; message?: string }
  | { kind: 'ready' }
  | { kind: 'error'; message: string };

interface SessionReply {
  csrfToken: string | null;
}

// A code is single-use: a second effect run (React StrictMode in development) must reuse the
// first redemption instead of spending the code again.
let redeeming: { code: string; result: Promise<SessionState> } | undefined;

function loginOnce(code: string): Promise<SessionState> {
  if (redeeming?.code !== code) redeeming = { code, result: loginWithCode(code) };
  return redeeming.result;
}

async function loginWithCode(code: string): Promise<SessionState> {
  try {
    const reply = await api<SessionReply>('/api/auth/login', { method: 'POST', body: { code } });
    setCsrfToken(reply.csrfToken);
    return { kind: 'ready' };
  } catch (err) {
    return { kind: 'anonymous', message: errorText(err) };
  } finally {
    window.history.replaceState(null, '', '/');
  }
}

async function currentSession(): Promise<SessionState> {
  try {
    setCsrfToken((await api<SessionReply>('/api/auth/session')).csrfToken);
    return { kind: 'ready' };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { kind: 'anonymous' };
    return { kind: 'error', message: errorText(err) };
  }
}

/** Resolves the session once on load. */
export function useSession(): SessionState {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  useEffect(() => {
    const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
    const onLogin = window.location.pathname === '/login' && code !== null;
    let live = true;
    void (onLogin ? loginOnce(code) : currentSession()).then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);
  return state;
}
