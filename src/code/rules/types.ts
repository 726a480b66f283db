// The rule engine's vocabulary: categories, severities, findings, thresholds and the shape of
// one rule. Pure types and constants; no parsing or rule logic here.
import type { CodeLanguage } from '../languages.js';
import type { FileMetrics } from '../metrics/index.js';
import type { SyntaxNode } from '../parser.js';
import type { CallSite } from './calls.js';

/** The categories of the issue, in its order. */
export const RULE_CATEGORIES = [
  'complexity',
  'size',
  'error handling',
  'hygiene',
  'security',
  'duplication',
] as const;
export type RuleCategory = (typeof RULE_CATEGORIES)[number];

export type RuleSeverity = 'error' | 'warning' | 'info';

/**
 * Limits of the metric rules. A finding is reported when a measure is strictly OVER its limit.
 * The project file `.cairn/rules.toml` overrides these per project and per path (config.ts).
 */
export interface RuleThresholds {
  /** Cyclomatic complexity of one function (default 10). */
  readonly cyclomatic: number;
  /** SonarSource cognitive complexity of one function (default 15). */
  readonly cognitive: number;
  /** Lines of one function, first to last, inclusive (default 60). */
  readonly functionLength: number;
  /** Parameters of one function (default 5). */
  readonly parameters: number;
  /** Deepest nesting inside one function (default 4). */
  readonly nesting: number;
  /** Physical lines of one file (default 500). */
  readonly fileLength: number;
  /** Methods of one class, struct, trait or impl block (default 20). */
  readonly methods: number;
  /** Non-blank body lines a repeated function needs, and lines a repeated block spans (default 6). */
  readonly duplicateLines: number;
  /** Tokens a repeated block needs, comments and layout not counted (default 50). */
  readonly duplicateTokens: number;
}

/** The documented defaults of every threshold. */
export const DEFAULT_THRESHOLDS: Readonly<RuleThresholds> = Object.freeze({
  cyclomatic: 10,
  cognitive: 15,
  functionLength: 60,
  parameters: 5,
  nesting: 4,
  fileLength: 500,
  methods: 20,
  duplicateLines: 6,
  duplicateTokens: 50,
});

/** One problem found in a file. `line` and `column` are 1-based. */
export interface RuleFinding {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly rule: string;
  readonly severity: RuleSeverity;
  readonly message: string;
}

/** What `listRules` says about a rule. */
export interface RuleInfo {
  readonly id: string;
  readonly category: RuleCategory;
  readonly severity: RuleSeverity;
  /** The languages the rule is implemented and tested for. */
  readonly languages: readonly CodeLanguage[];
  readonly description: string;
  /** The key in `RuleThresholds` this rule compares against, when it has one. */
  readonly threshold?: keyof RuleThresholds;
  /** That threshold's default. */
  readonly defaultThreshold?: number;
}

/** Everything a rule may read about one file: parsed once, shared by all rules. */
export interface RuleContext {
  readonly path: string;
  readonly language: CodeLanguage;
  readonly text: string;
  readonly root: SyntaxNode;
  readonly metrics: FileMetrics;
  readonly thresholds: RuleThresholds;
  /** The file's call sites (computed on first use, shared by the rules that read calls). */
  readonly calls: () => readonly CallSite[];
}

/** A finding before the engine adds path, rule id and severity. */
export interface RawFinding {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** A rule: its description and a check (async only where a detector is, e.g. secrets). */
export interface Rule extends RuleInfo {
  check(context: RuleContext): readonly RawFinding[] | Promise<readonly RawFinding[]>;
}
