// validate_code over a path: one file (scope file) or every code file under a directory
// (scope project), with the rules selected once before anything is read, exact counts per
// rule and severity, and a bounded list of findings that says truthfully what it left out.
import { InvalidInputError } from '../../shared/index.js';
import {
  DEFAULT_THRESHOLDS,
  type RuleFinding,
  type RuleThresholds,
  selectRules,
  validateSource,
} from '../rules/index.js';
import { fitToBudget, truncationHint } from './budget.js';
import { visitDirectory } from './directory.js';
import { readSourceFile, resolveTarget } from './source-file.js';
import {
  DEFAULT_INSPECT_LIMITS,
  type FileCounts,
  type FindingCounts,
  type InspectLimits,
  type InspectTarget,
  type TruncatedBy,
  type ValidateReport,
} from './types.js';

/** validate_code's arguments (the validate family's, camel-cased) and the run's settings. */
export interface ValidatePathOptions extends InspectTarget {
  /** Default: `file` when `path` is a file, `project` when it is a directory. */
  readonly scope?: 'file' | 'project';
  readonly rules?: readonly string[];
  readonly category?: string;
  readonly thresholds?: Partial<RuleThresholds>;
}

const NARROW = 'a subdirectory or one file as `path`, or fewer `rules`, or one `category`';

function emptyCounts(): FindingCounts {
  return { findings: 0, bySeverity: { error: 0, warning: 0, info: 0 }, byRule: {}, files: 0 };
}

function count(counts: FindingCounts, findings: readonly RuleFinding[]): void {
  if (findings.length > 0) counts.files++;
  for (const f of findings) {
    counts.findings++;
    counts.bySeverity[f.severity]++;
    counts.byRule[f.rule] = (counts.byRule[f.rule] ?? 0) + 1;
  }
}

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
  base: Omit<ValidateReport, 'counts' | 'findings' | 'truncated' | 'truncatedBy'>,
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

/**
 * Validates the file or directory at `options.path`. Rules and category are checked before
 * the path is touched (thresholds by validateSource, on the first file).
 * @throws InvalidInputError naming `rules`, `category`, `thresholds` or `path` (outside the
 *   allowed roots, missing, binary, too large, not code, or a file/directory that does not
 *   match `scope`).
 */
export async function validatePath(options: ValidatePathOptions): Promise<ValidateReport> {
  const limits: InspectLimits = { ...DEFAULT_INSPECT_LIMITS, ...options.limits };
  const selection = { rules: options.rules, category: options.category };
  const rules = selectRules(clean(selection)).map((r) => r.id);
  const thresholds: RuleThresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const run = clean({ ...selection, thresholds: options.thresholds });
  const target = await resolveTarget(options.path, options.allowedRoots, options.cwd);
  const scope = scopeOf(options, target.isDirectory);
  const counts = emptyCounts();
  const base = { scope, path: options.path, root: target.real, rules, thresholds };
  if (scope === 'file') {
    const source = await readSourceFile(target.real, options.path, limits.maxFileBytes);
    const found = await validateSource({ path: options.path, ...source }, run);
    count(counts, found);
    const files: FileCounts = {
      read: 1,
      notRead: 0,
      failedCount: 0,
      failed: [],
      skippedByWalk: {},
    };
    return finish({ ...base, files }, found, [], limits, counts);
  }
  // Only the findings the answer could show are kept; the counts cover every one.
  const kept: RuleFinding[] = [];
  const dir = await visitDirectory(target.real, options, limits, async (file) => {
    const found = await validateSource(file, run);
    count(counts, found);
    kept.push(...found.slice(0, Math.max(0, limits.maxShown - kept.length)));
  });
  const withNothing = dir.nothing === undefined ? {} : { nothing: dir.nothing };
  return finish(
    { ...base, files: dir.counts, ...withNothing },
    kept,
    dir.truncatedBy,
    limits,
    counts,
  );
}

/** `o` without its undefined members (exactOptionalPropertyTypes). */
function clean<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
