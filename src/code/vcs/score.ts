// The impact score (0–100) and its reasons, from what a change touches: dependents found in
// the reference graph (direct, transitive, linked by import or not), files reached, public
// symbols removed or re-signed, the number of declarations changed, and whether tests moved.
// Line counts only enter for files that could not be compared by symbol. Pure.
import type { SymbolChange } from './types.js';

/** One contribution to the score. */
export interface ImpactReason {
  factor: 'dependents' | 'files' | 'breaking' | 'size' | 'tests';
  points: number;
  max: number;
  detail: string;
}

export type ImpactLevel = 'low' | 'medium' | 'high' | 'critical';

/** The counts the score is computed from. */
export interface ScoreInput {
  /** Dependents at depth 1 / deeper, each weighted 1 when linked by import or file, else 0.5. */
  direct: number;
  transitive: number;
  directCount: number;
  transitiveCount: number;
  files: number;
  /** Removed or signature-changed public symbols, and how many of them still have dependents. */
  breaking: number;
  breakingReferenced: number;
  symbolsChanged: number;
  /** Lines changed in files not compared by symbol (no grammar, too large, over the cap). */
  unparsedLines: number;
  testsChanged: boolean;
  testDependents: number;
}

/** x / (x + k): 0 at 0, ½ at k, approaching 1; so no single factor saturates early. */
const sat = (x: number, k: number) => (x <= 0 ? 0 : x / (x + k));
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Score, level and the reasons, each with its points; the points sum to the score (± rounding). */
export function scoreImpact(input: ScoreInput): {
  score: number;
  level: ImpactLevel;
  reasons: ImpactReason[];
} {
  const code = input.symbolsChanged > 0;
  const testPoints = !code || input.testsChanged ? 0 : input.testDependents > 0 ? 5 : 10;
  const size = input.symbolsChanged + input.unparsedLines / 50;
  const reasons: ImpactReason[] = [
    {
      factor: 'dependents',
      points: round1(35 * sat(input.direct + 0.5 * input.transitive, 8)),
      max: 35,
      detail: `${input.directCount} direct and ${input.transitiveCount} transitive dependents`,
    },
    {
      factor: 'files',
      points: round1(15 * sat(input.files, 5)),
      max: 15,
      detail: `${input.files} files reference the change`,
    },
    {
      factor: 'breaking',
      points: round1(25 * sat(input.breaking + input.breakingReferenced, 2)),
      max: 25,
      detail: `${input.breaking} public symbols removed or re-signed, ${input.breakingReferenced} of them still referenced`,
    },
    {
      factor: 'size',
      points: round1(15 * sat(size, 10)),
      max: 15,
      detail: `${input.symbolsChanged} declarations changed${input.unparsedLines > 0 ? `, ${input.unparsedLines} lines in files not compared by symbol` : ''}`,
    },
    {
      factor: 'tests',
      points: testPoints,
      max: 10,
      detail: !code
        ? 'no declarations changed'
        : input.testsChanged
          ? 'the branch changes tests too'
          : input.testDependents > 0
            ? `no test changed; ${input.testDependents} dependents are tests`
            : 'no test changed and no test depends on the change',
    },
  ];
  const score = Math.min(100, Math.round(reasons.reduce((sum, r) => sum + r.points, 0)));
  const level: ImpactLevel =
    score < 20 ? 'low' : score < 45 ? 'medium' : score < 70 ? 'high' : 'critical';
  return { score, level, reasons };
}

const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec|specs)\/|\.(?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]+\.py$|_test\.(?:py|go)$|(?:Test|Tests|Spec)\.(?:java|kt|cs|php)$|_spec\.rb$/;

/** True for a path that looks like a test by the usual conventions of the 13 languages. */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/**
 * Whether a changed symbol is part of its file's public surface, from its signature and name:
 * TS/JS `export` (members: not private/protected/#), Python no leading `_`, Go capitalised,
 * Rust `pub`, Java/C#/PHP `public`, Kotlin not private/internal, C/C++ not `static`, Ruby yes.
 */
export function isPublic(change: SymbolChange): boolean {
  const sig = change.signature;
  const ext = change.path.slice(change.path.lastIndexOf('.') + 1).toLowerCase();
  const member = change.container !== null;
  if (/^[cm]?[jt]sx?$/.test(ext)) {
    return member ? !/^\s*(?:private|protected)\b|^\s*#/.test(sig) : /^\s*export\b/.test(sig);
  }
  if (ext === 'py' || ext === 'pyi')
    return !change.name.startsWith('_') || /^__\w+__$/.test(change.name);
  if (ext === 'go') return /^[A-Z]/.test(change.name);
  if (ext === 'rs') return /^\s*pub\b/.test(sig);
  if (['java', 'cs', 'php'].includes(ext))
    return /\bpublic\b/.test(sig) || (ext === 'php' && !/\b(?:private|protected)\b/.test(sig));
  if (ext === 'kt' || ext === 'kts') return !/\b(?:private|internal|protected)\b/.test(sig);
  if (['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx'].includes(ext))
    return !/\bstatic\b/.test(sig);
  return true;
}
