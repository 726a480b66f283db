// A git origin URL → the repository's stable identity: one normalised key (ssh, scp-like and
// https forms of one repository agree), its hash (repo_id) and its owner/repo (project_id).
// Pure string work: never runs git, never reaches the network.
import { createHash } from 'node:crypto';

/** What an origin URL says about the repository it names. */
export interface OriginIdentity {
  /** `host/path`, lower-cased, without credentials, port, trailing slash or `.git`. */
  key: string;
  /** First 16 hex digits of SHA-256 over `key`. */
  repo_id: string;
  /** The path as written (case kept), without `.git`: `owner/repo`, `group/sub/repo`. */
  project_id: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** scp-like `[user@]host:path` (git's rule: no slash before the first colon). */
const SCP = /^(?:[^@/]+@)?([^:/]{2,}):(?!\/\/)(.+)$/;

/** Strips leading/trailing slashes, a `.git` suffix and percent-encoding from a URL path. */
function cleanPath(path: string): string {
  let p = path.replace(/[?#].*$/, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    // Malformed escapes: keep the text as written.
  }
  return p
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
    .replace(/^\/+/, '')
    .replace(/^~/, '');
}

/** Host and path of an origin URL, or undefined when it is not one git could clone from. */
function split(url: string): { host: string; path: string } | undefined {
  const scheme = SCHEME.exec(url);
  if (scheme) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const host = parsed.protocol === 'file:' ? '' : parsed.hostname.toLowerCase();
    return { host, path: cleanPath(parsed.pathname) };
  }
  const scp = SCP.exec(url);
  if (scp?.[1] !== undefined && scp[2] !== undefined) {
    return { host: scp[1].toLowerCase(), path: cleanPath(scp[2]) };
  }
  if (url.startsWith('/')) return { host: '', path: cleanPath(url) };
  return undefined;
}

/**
 * Normalises an origin URL. `git@github.com:Owner/Repo.git`, `ssh://git@github.com:22/owner/repo`
 * and `https://user:token@GitHub.com/owner/repo/` all give the key `github.com/owner/repo`.
 * Hosted paths are compared case-insensitively (as GitHub, GitLab and Bitbucket do); a local
 * path origin (`/srv/git/app.git`, `file:///srv/git/app.git`) keeps its case. Returns
 * undefined for text that is not a URL, an scp-like address or an absolute path.
 */
export function originIdentity(url: string): OriginIdentity | undefined {
  const parts = split(url.trim());
  if (parts === undefined || parts.path === '') return undefined;
  const key = parts.host === '' ? `/${parts.path}` : `${parts.host}/${parts.path}`.toLowerCase();
  const repo_id = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const project_id = parts.host === '' ? parts.path.split('/').slice(-2).join('/') : parts.path;
  return { key, repo_id, project_id };
}
