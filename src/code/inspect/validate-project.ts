// validate_code's project scope: every code file under the directory, each with the options
// the rules file gives its path (ignored files counted, never read), and the cross-file
// duplicate scan fed the same files as they are read (only token streams are kept).
import {
  createDuplicateScan,
  type DuplicateScan,
  type RuleFinding,
  RULES,
  type RuleSeverity,
  selectRules,
  type ValidateOptions,
  validateSource,
} from '../rules/index.js';
import { visitDirectory } from './directory.js';
import { type ProjectRules, projectOptions } from './rules-file.js';
import { createTally } from './tally.js';
import type {
  FileCounts,
  FindingCounts,
  InspectLimits,
  InspectSkip,
  InspectTarget,
  TruncatedBy,
} from './types.js';

/** The rule the cross-file scan reports as (the within-file one is the same rule). */
const CROSS_FILE_RULE = 'duplicate-block';

/** What a project run found: the findings worth keeping, exact counts, files and cuts. */
export interface ProjectRun {
  /** At most `maxShown`, sorted by walk order (path), line, column, rule. */
  kept: RuleFinding[];
  counts: FindingCounts;
  files: FileCounts;
  truncatedBy: TruncatedBy[];
  nothing?: string;
}

const runs = (options: ValidateOptions, rule: string): boolean =>
  selectRules(options).some((r) => r.id === rule);

/** The severity the project gives `rule` (the rules file's, else the rule's own). */
function severityOf(project: ValidateOptions, rule: string): RuleSeverity {
  return project.severity?.[rule] ?? RULES.find((r) => r.id === rule)?.severity ?? 'warning';
}

/**
 * The duplicate scan for the project's options (its thresholds, not an override's: one index
 * spans every file), or null when duplicate-block is not run.
 */
function duplicateScan(project: ValidateOptions, limits: InspectLimits): DuplicateScan | null {
  if (!runs(project, CROSS_FILE_RULE)) return null;
  return createDuplicateScan({
    ...(project.thresholds === undefined ? {} : { thresholds: project.thresholds }),
    severity: severityOf(project, CROSS_FILE_RULE),
    maxFindings: limits.maxShown,
    maxTokens: limits.maxDuplicateTokens,
  });
}

/** `a` and `b` (each sorted) merged by walk order, line, column, rule; the first `max`. */
function merge(
  a: readonly RuleFinding[],
  b: readonly RuleFinding[],
  order: ReadonlyMap<string, number>,
  max: number,
): RuleFinding[] {
  const at = (f: RuleFinding): number => order.get(f.path) ?? Number.MAX_SAFE_INTEGER;
  return [...a, ...b]
    .sort(
      (x, y) =>
        at(x) - at(y) || x.line - y.line || x.column - y.column || x.rule.localeCompare(y.rule),
    )
    .slice(0, max);
}

/**
 * Validates every code file under canonical directory `root` with `rules` (the directory's
 * own `.cairn/rules.toml`) and the call's `base` options.
 * @throws InvalidInputError (`thresholds`, `severity`) from the first file or the scan.
 */
export async function validateProject(
  root: string,
  target: InspectTarget,
  limits: InspectLimits,
  rules: ProjectRules,
  base: ValidateOptions,
): Promise<ProjectRun> {
  const tally = createTally();
  const project = projectOptions(rules, base);
  const scan = duplicateScan(project, limits);
  const optionsOf = new Map<string, ValidateOptions>();
  const order = new Map<string, number>();
  let kept: RuleFinding[] = [];
  const skip = (path: string): InspectSkip | null => {
    const options = rules.optionsFor(path, base);
    if (options === null) return 'rules.toml ignore';
    optionsOf.set(path, options);
    return null;
  };
  const dir = await visitDirectory(
    root,
    target,
    limits,
    async (file) => {
      const options = optionsOf.get(file.path) ?? base;
      const found = await validateSource(file, options);
      order.set(file.path, order.size);
      tally.add(found);
      kept.push(...found.slice(0, Math.max(0, limits.maxShown - kept.length)));
      if (scan !== null && runs(options, CROSS_FILE_RULE)) await scan.add(file);
    },
    skip,
  );
  const truncatedBy = [...dir.truncatedBy];
  if (scan !== null) {
    const d = scan.report();
    tally.add(d.findings);
    const severity = severityOf(project, CROSS_FILE_RULE);
    tally.addUncollected(d.omitted, CROSS_FILE_RULE, severity, d.omittedIn);
    kept = merge(kept, d.findings, order, limits.maxShown);
    if (d.truncated) truncatedBy.push('duplicates');
  }
  const run: ProjectRun = { kept, counts: tally.counts, files: dir.counts, truncatedBy };
  const nothing = dir.nothing ?? allIgnored(dir.counts, rules);
  if (nothing !== undefined) run.nothing = nothing;
  return run;
}

/** The message when the rules file's `ignore` left no file to read. */
function allIgnored(files: FileCounts, rules: ProjectRules): string | undefined {
  const ignored = files.skipped['rules.toml ignore'] ?? 0;
  if (ignored === 0 || files.read + files.failedCount + files.notRead > 0) return undefined;
  return `all ${ignored} code files are ignored by ${rules.config.file ?? 'the rules file'} (ignore)`;
}
