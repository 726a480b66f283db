// Locations a vault sync refuses to read, judged on absolute paths both as given and after
// resolving symlinks (a link into ~/.ssh is refused like ~/.ssh itself): /etc/, /root/, and any
// path with a segment .ssh, .env (or .env.*), .aws, .kube, or a name containing "credentials".
import { VaultRestrictedPathError } from './errors.js';

/** The rule an absolute path breaks, or undefined when it is allowed. */
export function restrictedRule(absolute: string): string | undefined {
  const p = absolute.replace(/\\/g, '/');
  if (p === '/etc' || p.startsWith('/etc/')) return '/etc/';
  if (p === '/root' || p.startsWith('/root/')) return '/root/';
  for (const seg of p.split('/')) {
    const s = seg.toLowerCase();
    if (s === '.ssh') return '.ssh';
    if (s === '.aws') return '.aws';
    if (s === '.kube') return '.kube';
    if (s === '.env' || s.startsWith('.env.')) return '.env';
    if (s.includes('credentials')) return 'credentials';
  }
  return undefined;
}

/**
 * Refuses `paths` (the same location as given and as resolved) when any breaks a rule.
 * @throws VaultRestrictedPathError naming the offending path and rule.
 */
export function assertAllowed(...paths: readonly string[]): void {
  for (const p of paths) {
    const rule = restrictedRule(p);
    if (rule !== undefined) throw new VaultRestrictedPathError(p, rule);
  }
}
