// Applies a RuleConfig to one file: whether it is ignored, and the ValidateOptions it gets
// (thresholds, disabled rules, severities, with the `[[overrides]]` whose globs match). Globs
// use gitignore syntax (the `ignore` package, as the walker). Pure: no file system.
import ignore, { type Ignore } from 'ignore';

import type { RuleConfig } from './config.js';
import type { RuleThresholds } from './types.js';
import type { ValidateOptions } from './validate.js';

/** The options for one project-relative path, or null when the rules file ignores it. */
export type PathOptions = (path: string, base?: ValidateOptions) => ValidateOptions | null;

/** A project-relative POSIX path as `ignore` wants it, or null for one outside the project. */
function relative(path: string): string | null {
  const rel = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (rel === '' || rel.startsWith('/') || rel === '..' || rel.startsWith('../')) return null;
  if (/^[A-Za-z]:\//.test(rel)) return null;
  return rel;
}

function matcher(globs: readonly string[]): (rel: string) => boolean {
  const ig: Ignore = ignore().add([...globs]);
  return (rel) => ig.ignores(rel);
}

/**
 * Compiles `config` once for many files. The call's own options win over the file's: its
 * thresholds and severities replace the configured ones, and a rule it names in `rules` runs
 * even when the file disables it. Paths outside the project (absolute, `../`) get the
 * project-wide settings and no override.
 */
export function pathOptions(config: RuleConfig): PathOptions {
  const ignored = matcher(config.ignore);
  const overrides = config.overrides.map((o) => ({ ...o, matches: matcher(o.paths) }));
  return (path, base = {}) => {
    const rel = relative(path);
    if (rel !== null && ignored(rel)) return null;
    const matching = rel === null ? [] : overrides.filter((o) => o.matches(rel));
    const thresholds = Object.assign(
      {},
      config.thresholds,
      ...matching.map((o) => o.thresholds),
      base.thresholds,
    ) as Partial<RuleThresholds>;
    const disabled = [
      ...new Set([
        ...config.disabled,
        ...matching.flatMap((o) => o.disabled),
        ...(base.disabled ?? []),
      ]),
    ];
    const severity = { ...config.severity, ...base.severity };
    return { ...base, thresholds, disabled, severity };
  };
}
