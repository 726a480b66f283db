// Which `.cairn/rules.toml` a validate_code run obeys: the nearest directory holding `.cairn/`
// (a project run's own directory first; for one file, its directory first), never above the allowed root that
// holds the file and at most MAX_RULES_ANCESTORS levels up. Reads nothing but `.cairn` entries.
import { stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

import {
  DEFAULT_RULE_CONFIG,
  loadRuleConfig,
  type PathOptions,
  pathOptions,
  type RuleConfig,
  type ValidateOptions,
} from '../rules/index.js';
import { allowedRootsOf, isWithin } from '../walk/index.js';

/** Directories looked at, the file's own included, before the search gives up. */
export const MAX_RULES_ANCESTORS = 64;

/** The rules a run obeys: the project root its globs are relative to, and the file's options. */
export interface ProjectRules {
  /** The directory holding `.cairn/`, or null when none was found (all defaults). */
  readonly root: string | null;
  readonly config: RuleConfig;
  readonly optionsFor: PathOptions;
}

async function holdsCairn(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, '.cairn'))).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The nearest directory above canonical file `file` that holds `.cairn/`, or null: the search
 * stops at the outermost allowed root holding the file, at the file system root, and after
 * MAX_RULES_ANCESTORS directories.
 */
export async function rulesRootOf(
  file: string,
  allowedRoots: readonly string[],
): Promise<string | null> {
  return rulesRootFrom(dirname(file), allowedRoots);
}

/** As rulesRootOf, starting at directory `start` itself. */
export async function rulesRootFrom(
  start: string,
  allowedRoots: readonly string[],
): Promise<string | null> {
  const roots = allowedRootsOf(allowedRoots).filter((r) => isWithin(start, r));
  const top = roots.sort((a, b) => a.length - b.length)[0];
  if (top === undefined) return null;
  let dir = start;
  for (let i = 0; i < MAX_RULES_ANCESTORS && isWithin(dir, top); i++) {
    if (await holdsCairn(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/**
 * Loads the rules of project root `root` (null: the defaults).
 * @throws InvalidInputError (`.cairn/rules.toml[:key]`) for a rules file that does not validate.
 */
export async function loadProjectRules(root: string | null): Promise<ProjectRules> {
  const config = root === null ? DEFAULT_RULE_CONFIG : await loadRuleConfig(root);
  return { root, config, optionsFor: pathOptions(config) };
}

/**
 * The rules of a directory run: the directory's own `.cairn/`, else the nearest ancestor's
 * (as for a file); the rules file's globs stay relative to the directory holding it.
 * @throws InvalidInputError as loadProjectRules.
 */
export async function directoryRules(
  dir: string,
  allowedRoots: readonly string[],
): Promise<ProjectRules> {
  const root = await rulesRootFrom(dir, allowedRoots);
  const rules = await loadProjectRules(root);
  if (root === null || root === dir) return rules;
  const prefix = relative(root, dir).split(sep).join('/');
  return { ...rules, optionsFor: (path, base) => rules.optionsFor(`${prefix}/${path}`, base) };
}

/** `file` relative to the project root, POSIX-style (as the globs want), or `file` itself. */
export function projectPath(rules: ProjectRules, file: string): string {
  return rules.root === null ? file : relative(rules.root, file).split(sep).join('/');
}

/** The project-wide options (no `[[overrides]]`): the rules file's, then the call's `base`. */
export function projectOptions(rules: ProjectRules, base: ValidateOptions): ValidateOptions {
  const { config } = rules;
  return {
    ...base,
    thresholds: { ...config.thresholds, ...base.thresholds },
    disabled: [...new Set([...config.disabled, ...(base.disabled ?? [])])],
    severity: { ...config.severity, ...base.severity },
  };
}
