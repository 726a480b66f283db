// PostgreSQL error codes the store acts on: serialization failures and deadlocks are retried
// by write(); the rest surface as they are.

/** SQLSTATEs a write transaction is retried on (serialization_failure, deadlock_detected). */
const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryablePgError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/** A connection string with its password replaced, for logs and `store.location`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable url)';
  }
}
