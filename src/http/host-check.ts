// DNS-rebinding defence: a browser page on evil.example can resolve its name to 127.0.0.1 and
// reach us, but its requests still carry `Host: evil.example` (and its Origin). Only the names
// this server is actually reached by are accepted.

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopbackHost(host: string): boolean {
  return (
    host === '127.0.0.1' ||
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    host.startsWith('127.')
  );
}

/** Host header values accepted for a server listening on host:port. */
export function allowedHostsFor(
  host: string,
  port: number,
  extra: readonly string[] = [],
): Set<string> {
  const names = new Set<string>(extra);
  const add = (name: string): void => {
    names.add(`${name}:${port}`);
    if (port === 80) names.add(name);
  };
  if (isLoopbackHost(host) || host === '0.0.0.0' || host === '::') LOOPBACK_NAMES.forEach(add);
  if (host !== '0.0.0.0' && host !== '::')
    add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  return names;
}

export type HostVerdict = { ok: true } | { ok: false; reason: string };

/** Checks Host and (when present) Origin against the allowed names. */
export function checkHostAndOrigin(
  allowed: ReadonlySet<string>,
  hostHeader: string | undefined,
  origin: string | undefined,
): HostVerdict {
  const host = (hostHeader ?? '').toLowerCase();
  if (!allowed.has(host)) return { ok: false, reason: `host not allowed: ${host || '(none)'}` };
  if (origin === undefined || origin === '') return { ok: true };
  let originHost: string;
  try {
    const url = new URL(origin);
    originHost = url.host.toLowerCase();
  } catch {
    return { ok: false, reason: 'origin not allowed' };
  }
  if (!allowed.has(originHost)) return { ok: false, reason: `origin not allowed: ${origin}` };
  return { ok: true };
}
