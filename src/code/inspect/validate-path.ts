// validate_code over a path: one file (scope file) or every code file under a directory
// (scope project), obeying the project's `.cairn/rules.toml`, with the rules selected once
// before anything is read, exact counts per rule and severity, and a bounded list of findings
// that says truthfully what it left out.
import { InvalidInputError } from '../../shared/index.js';
import {
  type RuleFinding,
  type RuleThresholds,
  selectRules,
  thresholdsOf,
  type ValidateOptions,
  validateSource,
} from '../rules/index.js';
import { fitToBudget, truncationHint } from './budget.js';
import {
  directoryRules,
  loadProjectRules,
  type ProjectRules,
  projectOptions,
  projectPath,
  rulesRootOf,
} from './rules-file.js';
import { readSourceFile, resolveTarget } from './source-file.js';
import { createTally } from './tally.js';
import {
  DEFAULT_INSPECT_LIMITS,
  type FileCounts,
  type FindingCounts,
  type InspectLimits,
  type InspectTarget,
  type TruncatedBy,
  type ValidateReport,
} from './types.js';
import { validateProject } from './validate-project.js';

/** validate_code's arguments (the validate family's, camel-cased) and the run's settings. */
export interface ValidatePathOptions extends InspectTarget {
  /** Default: `file` when `path` is a file, `project` when it is a directory. */
  readonly scope?: 'file' | 'project';
  readonly rules?: readonly string[];
  readonly category?: string;
  /** Win over the rules file's thresholds. */
  readonly thresholds?: Partial<RuleThresholds>;
}

const NARROW = 'a subdirectory or one file as `path`, or fewer `rules`, or one `category`';

type ReportBase = Omit<ValidateReport, 'counts' | 'findings' | 'truncated' | 'truncatedBy'>;

/** The scope to run, from the argument and what `path` turned out to be. */
function scopeOf(options: ValidatePathOptions, isDirectory: boolean): 'file' | 'project' {
  const shown = JSON.stringify(options.path);
  if (options.scope === 'file' && isDirectory) {
    throw new InvalidInputError(
      `path ${shown} is a directory; scope "file" needs a file (omit scope, or use scope "project")`,
      'path',
    );
  }
  if (options.scope === 'project' && !isDirectory) {
    throw new InvalidInputError(
      `path ${shown} is a file; scope "project" needs a directory (omit scope, or use scope "file")`,
      'path',
    );
  }
  return options.scope ?? (isDirectory ? 'project' : 'file');
}

/** The report's findings, counts and truncation from every finding of the files read. */
function finish(
  base: ReportBase,
  kept: readonly RuleFinding[],
  cut: TruncatedBy[],
  limits: InspectLimits,
  counts: FindingCounts,
): ValidateReport {
  const findings = fitToBudget(kept, limits.maxShown, limits.maxBytes);
  const truncatedBy = findings.length < counts.findings ? [...cut, 'shown' as const] : cut;
  const report: ValidateReport = {
    ...base,
    counts,
    findings,
    truncated: truncatedBy.length > 0,
    truncatedBy,
  };
  if (truncatedBy.length > 0) {
    const showing = `showing ${findings.length} of ${counts.findings} findings from ${base.files.read} files`;
    report.hint = `${showing}; ${truncationHint(truncatedBy, NARROW)}`;
  }
  return report;
}

/** What the report says about the rules: ids selected, thresholds, the file and overrides. */
function rulesPart(rules: ProjectRules, options: ValidateOptions) {
  return {
    rules: selectRules(options).map((r) => r.id),
    thresholds: thresholdsOf(options.thresholds),
    rulesFile: rules.config.file,
    overrides: rules.config.overrides.map((o) => ({ ...o })),
  };
}

const noFiles = (): FileCounts => ({
  read: 0,
  notRead: 0,
  failedCount: 0,
  failed: [],
  skippedByWalk: {},
  skipped: {},
});

/** Scope file: the options of the file's project path; an ignored file is skipped, not read. */
async function validateFile(
  options: ValidatePathOptions,
  real: string,
  limits: InspectLimits,
  base: ValidateOptions,
): Promise<ValidateReport> {
  const rules = await loadProjectRules(await rulesRootOf(real, options.allowedRoots));
  const fileOptions = rules.optionsFor(projectPath(rules, real), base);
  const head = { scope: 'file' as const, path: options.path, root: real };
  const tally = createTally();
  // Read first: a path that is not a readable code file is refused, ignored or not.
  const source = await readSourceFile(real, options.path, limits.maxFileBytes);
  if (fileOptions === null) {
    const report = { ...head, ...rulesPart(rules, projectOptions(rules, base)) };
    const files = { ...noFiles(), skipped: { 'rules.toml ignore': 1 } };
    const nothing = `${options.path} is ignored by ${rules.config.file ?? ''} (ignore)`;
    return finish({ ...report, files, nothing }, [], [], limits, tally.counts);
  }
  const found = await validateSource({ path: options.path, ...source }, fileOptions);
  tally.add(found);
  const files = { ...noFiles(), read: 1 };
  const report = { ...head, ...rulesPart(rules, fileOptions), files };
  return finish(report, found, [], limits, tally.counts);
}

/**
 * Validates the file or directory at `options.path` under its project's `.cairn/rules.toml`
 * (the nearest directory holding `.cairn/`: a directory's own first, else an ancestor's). Rules and category
 * are checked before the path is touched (thresholds by validateSource, on the first file).
 * @throws InvalidInputError naming `rules`, `category`, `thresholds`, `path` (outside the
 *   allowed roots, missing, binary, too large, not code, or a file/directory that does not
 *   match `scope`) or `.cairn/rules.toml[:key]` (a rules file that does not validate).
 */
export async function validatePath(options: ValidatePathOptions): Promise<ValidateReport> {
  const limits: InspectLimits = { ...DEFAULT_INSPECT_LIMITS, ...options.limits };
  const base = clean({
    rules: options.rules,
    category: options.category,
    thresholds: options.thresholds,
  });
  selectRules(base);
  const target = await resolveTarget(options.path, options.allowedRoots, options.cwd);
  const scope = scopeOf(options, target.isDirectory);
  if (scope === 'file') return validateFile(options, target.real, limits, base);
  const rules = await directoryRules(target.real, options.allowedRoots);
  const run = await validateProject(target.real, options, limits, rules, base);
  const report = {
    scope,
    path: options.path,
    root: target.real,
    ...rulesPart(rules, projectOptions(rules, base)),
    files: run.files,
    ...(run.nothing === undefined ? {} : { nothing: run.nothing }),
  };
  return finish(report, run.kept, run.truncatedBy, limits, run.counts);
}

/** `o` without its undefined members (exactOptionalPropertyTypes). */
function clean<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
