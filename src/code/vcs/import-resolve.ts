// Does an import specifier (as chunkFile records it) name a given repository file? A path-based
// heuristic per language family, with no package manifests or compiler settings read: relative
// specifiers resolve exactly; module paths match a file whose path ends with them. Pure.

const SOURCE_EXT =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|cs|rb|php|c|h|cc|cpp|cxx|hpp|hh|hxx)$/i;

/** Files that stand for their directory (`import './dir'`, a Python package, a Rust module). */
const INDEX_NAMES = new Set(['index', '__init__', 'mod']);

function stemOf(path: string): string {
  return path.replace(SOURCE_EXT, '');
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** `a/./b/../c` → `a/c`; null when it climbs out of the repository. */
function normalise(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

function endsWithSegments(path: string, suffix: string): boolean {
  return suffix !== '' && (path === suffix || path.endsWith(`/${suffix}`));
}

interface Candidates {
  /** Repository-relative stems the specifier resolves to exactly. */
  exact: string[];
  /** Module paths a file's stem must end with. */
  suffix: string[];
}

/** A module path as segments: `a.b.c`, `a::b`, `App\\X`, `@/x/y` → `a/b/c`, `a/b`, `App/X`, `x/y`. */
function modulePath(spec: string): string {
  let s = spec.trim().replace(/\\/g, '/').replace(/::/g, '/');
  s = s.replace(/\{.*$/, '').replace(/\/\*$|\.\*$/, '');
  s = s.replace(/^(?:@|~)\//, '').replace(/^(?:crate|self|super)\//, '');
  if (SOURCE_EXT.test(s)) return stemOf(s);
  return s.includes('/') ? s : s.replace(/\./g, '/');
}

function candidatesOf(fromPath: string, spec: string): Candidates {
  if (/^\.\.?(?:\/|$)/.test(spec)) {
    const rel = normalise(`${dirOf(fromPath)}/${spec}`);
    return { exact: rel === null ? [] : [stemOf(rel)], suffix: [] };
  }
  const dots = /^\.+/.exec(spec)?.[0].length ?? 0;
  if (dots > 0) {
    // Python relative: `.b` is a sibling, `..b` one package up, `.` the package itself.
    const up = '../'.repeat(dots - 1);
    const rel = normalise(`${dirOf(fromPath)}/${up}${spec.slice(dots).replace(/\./g, '/')}`);
    return { exact: rel === null ? [] : [rel], suffix: [] };
  }
  const path = modulePath(spec);
  const parts = path.split('/').filter((p) => p !== '');
  const suffix: string[] = [];
  for (let n = parts.length; n >= 1; n--) suffix.push(parts.slice(0, n).join('/'));
  return { exact: [], suffix };
}

/**
 * True when `spec`, imported by the file at `fromPath`, plausibly names the file at
 * `targetPath` (both repository-relative with `/`). Go imports name a package directory, so a
 * Go target matches by its directory.
 */
export function importNames(fromPath: string, spec: string, targetPath: string): boolean {
  const stem = stemOf(targetPath);
  const dir = dirOf(targetPath);
  const indexLike = INDEX_NAMES.has(stem.slice(stem.lastIndexOf('/') + 1));
  const go = targetPath.endsWith('.go');
  const { exact, suffix } = candidatesOf(fromPath, spec);
  for (const c of exact) {
    if (c === stem || ((indexLike || go) && c === dir)) return true;
  }
  for (const c of suffix) {
    if (endsWithSegments(stem, c)) return true;
    if (indexLike && endsWithSegments(dir, c)) return true;
  }
  // A Go import path is the module path plus the package directory (never a prefix of it).
  const whole = suffix[0];
  return (
    go && whole !== undefined && (endsWithSegments(whole, dir) || endsWithSegments(dir, whole))
  );
}

/** The words a file's importers must contain somewhere in their imports (a cheap pre-filter). */
export function importHints(targetPath: string): string[] {
  const stem = stemOf(targetPath);
  const base = stem.slice(stem.lastIndexOf('/') + 1);
  const dir = dirOf(targetPath);
  const hints = [base];
  if (INDEX_NAMES.has(base) || targetPath.endsWith('.go')) {
    const parent = dir.slice(dir.lastIndexOf('/') + 1);
    if (parent !== '') hints.push(parent);
    else if (INDEX_NAMES.has(base)) hints.push('.');
  }
  return hints;
}
