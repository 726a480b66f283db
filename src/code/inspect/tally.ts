// Exact finding counts over a validate_code run (`counts`), whatever the answer shows: every
// finding added once, and findings a scan only counted (the duplicate scan's `omitted`).
import type { RuleFinding, RuleSeverity } from '../rules/index.js';
import type { FindingCounts } from './types.js';

export interface Tally {
  readonly counts: FindingCounts;
  add(findings: readonly RuleFinding[]): void;
  /** `n` findings of `rule` at `severity` that were counted but not kept, in `paths`. */
  addUncollected(n: number, rule: string, severity: RuleSeverity, paths: readonly string[]): void;
}

export function createTally(): Tally {
  const counts: FindingCounts = {
    findings: 0,
    bySeverity: { error: 0, warning: 0, info: 0 },
    byRule: {},
    files: 0,
  };
  const files = new Set<string>();
  const bump = (rule: string, severity: RuleSeverity, n: number): void => {
    counts.findings += n;
    counts.bySeverity[severity] += n;
    counts.byRule[rule] = (counts.byRule[rule] ?? 0) + n;
  };
  return {
    counts,
    add(findings) {
      for (const f of findings) {
        files.add(f.path);
        bump(f.rule, f.severity, 1);
      }
      counts.files = files.size;
    },
    addUncollected(n, rule, severity, paths) {
      if (n <= 0) return;
      for (const p of paths) files.add(p);
      bump(rule, severity, n);
      counts.files = files.size;
    },
  };
}
