// validate_code's engine for one file: picks the rules (by id or category), parses once,
// measures once, runs every chosen rule that claims the language, and sorts the findings.
// No file system access: the caller reads the file (or the project walker does).
import { DomainError, InvalidInputError } from '../../shared/errors.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { analyzeTree } from '../metrics/index.js';
import { parseSource, type SyntaxNode } from '../parser.js';
import { type CallSite, callSites } from './calls.js';
import { RULES } from './registry.js';
import {
  DEFAULT_THRESHOLDS,
  RULE_CATEGORIES,
  type Rule,
  type RuleContext,
  type RuleFinding,
  type RuleSeverity,
  type RuleThresholds,
} from './types.js';

/** One file to validate. */
export interface ValidateInput {
  readonly path: string;
  readonly language: CodeLanguage;
  readonly text: string;
}

/** Which rules, and the limits of the metric rules. */
export interface ValidateOptions {
  /** Rule ids to run; empty or absent = all (within `category`). */
  readonly rules?: readonly string[];
  /** Only rules of this category. */
  readonly category?: string;
  /** Overrides of DEFAULT_THRESHOLDS (from `.cairn/rules.toml`, see config-paths.ts). */
  readonly thresholds?: Partial<RuleThresholds>;
  /** Rule ids skipped when `rules` is empty or absent (a rule named in `rules` still runs). */
  readonly disabled?: readonly string[];
  /** Severity per rule id, replacing the rule's own. */
  readonly severity?: Readonly<Record<string, RuleSeverity>>;
}

const SEVERITIES: readonly RuleSeverity[] = ['error', 'warning', 'info'];

function unknownIds(ids: readonly string[], field: string): void {
  const unknown = ids.filter((id) => !RULES.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `unknown rule id(s): ${unknown.join(', ')} (see list_rules)`,
      field,
    );
  }
}

/**
 * The severity overrides, checked.
 * @throws InvalidInputError (`severity`) for an unknown rule id or severity.
 */
function severitiesOf(
  overrides: Readonly<Record<string, RuleSeverity>> | undefined,
): ReadonlyMap<string, RuleSeverity> {
  const entries = Object.entries(overrides ?? {});
  unknownIds(
    entries.map(([id]) => id),
    'severity',
  );
  for (const [id, severity] of entries) {
    if (!SEVERITIES.includes(severity)) {
      throw new InvalidInputError(
        `severity of '${id}' must be one of ${SEVERITIES.join(', ')}`,
        'severity',
      );
    }
  }
  return new Map(entries);
}

/**
 * The rules `options` select, before filtering by language: `rules` (all when empty), within
 * `category`, less `disabled` unless `rules` names them.
 * @throws InvalidInputError (field `rules`, `disabled` or `category`) naming an unknown id or
 *   category.
 */
export function selectRules(options: ValidateOptions = {}): Rule[] {
  const { category, rules } = options;
  unknownIds(options.disabled ?? [], 'disabled');
  const disabled = new Set(options.disabled ?? []);
  if (category !== undefined && !(RULE_CATEGORIES as readonly string[]).includes(category)) {
    throw new InvalidInputError(
      `unknown rule category '${category}' (known: ${RULE_CATEGORIES.join(', ')})`,
      'category',
    );
  }
  unknownIds(rules ?? [], 'rules');
  const wanted = rules === undefined || rules.length === 0 ? null : new Set(rules);
  return RULES.filter(
    (r) =>
      (wanted === null ? !disabled.has(r.id) : wanted.has(r.id)) &&
      (category === undefined || r.category === category),
  );
}

/**
 * DEFAULT_THRESHOLDS with `overrides` applied.
 * @throws InvalidInputError (`thresholds`) for an unknown key or a value that is not a number ≥ 0.
 */
export function thresholdsOf(overrides: Partial<RuleThresholds> | undefined): RuleThresholds {
  const merged = { ...DEFAULT_THRESHOLDS };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (!(key in DEFAULT_THRESHOLDS)) {
      throw new InvalidInputError(`unknown threshold '${key}'`, 'thresholds');
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidInputError(`threshold '${key}' must be a number ≥ 0`, 'thresholds');
    }
    merged[key as keyof RuleThresholds] = value;
  }
  return merged;
}

/** Largest text validated, in UTF-16 code units (as analyze_code). */
export const MAX_VALIDATE_CHARS = 2_000_000;

function checkInput(input: ValidateInput): void {
  if (!CODE_LANGUAGES.includes(input.language)) {
    throw new InvalidInputError(`unsupported language '${String(input.language)}'`, 'language');
  }
  if (typeof input.text !== 'string') throw new InvalidInputError('text must be a string', 'text');
  if (input.text.length > MAX_VALIDATE_CHARS) {
    throw new InvalidInputError(
      `${input.path} is ${input.text.length} characters, over the ${MAX_VALIDATE_CHARS} validated`,
      'text',
    );
  }
}

/** The call sites of `root`, read on first use and kept for the other rules of the file. */
function lazyCalls(root: SyntaxNode, language: CodeLanguage): () => readonly CallSite[] {
  let calls: CallSite[] | undefined;
  return () => (calls ??= callSites(root, language));
}

/** Runs `rules` over one parsed file and stamps each finding with path, rule and severity. */
async function runRules(
  rules: readonly Rule[],
  context: RuleContext,
  severities: ReadonlyMap<string, RuleSeverity>,
): Promise<RuleFinding[]> {
  const found = await Promise.all(
    rules.map(async (rule) => ({ rule, raw: await rule.check(context) })),
  );
  return found
    .flatMap(({ rule, raw }) =>
      raw.map((f) => ({
        path: context.path,
        line: f.line,
        column: f.column,
        rule: rule.id,
        severity: severities.get(rule.id) ?? rule.severity,
        message: f.message,
      })),
    )
    .sort((a, b) => a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
}

/**
 * Runs the selected rules over one file and returns the findings sorted by line, then column,
 * then rule id. Parses once and measures once (analyzeTree) for all rules; rules that do not
 * claim `input.language` are skipped silently.
 * @throws InvalidInputError (`language`, `text`, `rules`, `disabled`, `category`, `thresholds`,
 *   `severity`);
 *   DomainError `grammar_unavailable` when the grammar cannot be loaded.
 */
export async function validateSource(
  input: ValidateInput,
  options: ValidateOptions = {},
): Promise<RuleFinding[]> {
  checkInput(input);
  const thresholds = thresholdsOf(options.thresholds);
  const severities = severitiesOf(options.severity);
  const rules = selectRules(options).filter((r) => r.languages.includes(input.language));
  if (rules.length === 0) return [];
  let tree;
  try {
    tree = await parseSource(input.language, input.text);
  } catch (cause) {
    const message = `cannot parse ${input.language}: ${String(cause)}`;
    throw new DomainError('grammar_unavailable', message, { cause });
  }
  try {
    const root = tree.rootNode;
    const metrics = analyzeTree(root, input);
    const calls = lazyCalls(root, input.language);
    return await runRules(rules, { ...input, root, metrics, thresholds, calls }, severities);
  } finally {
    tree.delete();
  }
}
