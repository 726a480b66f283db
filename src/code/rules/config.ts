// The project rules file, `.cairn/rules.toml`: read, parsed (smol-toml) and validated into a
// RuleConfig. Every unknown key or wrong type is an InvalidInputError naming the key and the
// file; a missing file is the defaults. Applying it to a path is config-paths.ts's job.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse, TomlError } from 'smol-toml';

import { InvalidInputError } from '../../shared/errors.js';
import { RULES } from './registry.js';
import { DEFAULT_THRESHOLDS, type RuleSeverity, type RuleThresholds } from './types.js';

/** Where the rules file lives, relative to the project root. */
export const RULES_FILE = '.cairn/rules.toml';
/** Largest rules file read, in bytes. */
export const MAX_RULES_FILE_BYTES = 256 * 1024;

/** Settings for the files under some paths (`[[overrides]]`). */
export interface RuleOverride {
  /** Globs (gitignore syntax, relative to the project root). */
  readonly paths: readonly string[];
  readonly disabled: readonly string[];
  readonly thresholds: Partial<RuleThresholds>;
}

/** A validated rules file; `file` is null when the project has none (all defaults). */
export interface RuleConfig {
  readonly file: string | null;
  readonly thresholds: Partial<RuleThresholds>;
  /** Rule ids not run unless a call names them. */
  readonly disabled: readonly string[];
  readonly severity: Readonly<Record<string, RuleSeverity>>;
  /** Globs of files no rule checks. */
  readonly ignore: readonly string[];
  readonly overrides: readonly RuleOverride[];
}

/** The configuration of a project without a rules file. */
export const DEFAULT_RULE_CONFIG: RuleConfig = Object.freeze({
  file: null,
  thresholds: {},
  disabled: [],
  severity: {},
  ignore: [],
  overrides: [],
});

const SEVERITIES: readonly RuleSeverity[] = ['error', 'warning', 'info'];
const RULE_IDS: ReadonlySet<string> = new Set(RULES.map((r) => r.id));

type Table = Record<string, unknown>;

/** Validation of one file: every refusal names the key path and the file. */
function checker(file: string) {
  const fail = (key: string, problem: string): never => {
    throw new InvalidInputError(`${file}: ${key}: ${problem}`, `${RULES_FILE}:${key}`);
  };
  const isTable = (v: unknown): v is Table =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
  const table = (key: string, v: unknown): Table => (isTable(v) ? v : fail(key, 'must be a table'));
  const only = (key: string, t: Table, allowed: readonly string[]): void => {
    for (const k of Object.keys(t)) {
      if (!allowed.includes(k)) {
        const where = key === '' ? k : `${key}.${k}`;
        fail(where, `unknown key (known: ${allowed.join(', ')})`);
      }
    }
  };
  const strings = (key: string, v: unknown): string[] => {
    if (!Array.isArray(v)) return fail(key, 'must be an array of strings');
    return v.map((s, i) =>
      typeof s === 'string' && s.trim() !== ''
        ? s
        : fail(`${key}[${i}]`, 'must be a non-empty string'),
    );
  };
  const ruleIds = (key: string, v: unknown): string[] =>
    strings(key, v).map((id, i) =>
      RULE_IDS.has(id) ? id : fail(`${key}[${i}]`, `unknown rule id '${id}' (see list_rules)`),
    );
  const thresholds = (key: string, v: unknown): Partial<RuleThresholds> => {
    const t = table(key, v);
    only(key, t, Object.keys(DEFAULT_THRESHOLDS));
    for (const [k, value] of Object.entries(t)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        fail(`${key}.${k}`, 'must be a number ≥ 0');
      }
    }
    return t as Partial<RuleThresholds>;
  };
  const severity = (key: string, v: unknown): Record<string, RuleSeverity> => {
    const t = table(key, v);
    for (const [id, value] of Object.entries(t)) {
      if (!RULE_IDS.has(id)) fail(`${key}.${id}`, `unknown rule id '${id}' (see list_rules)`);
      if (!SEVERITIES.includes(value as RuleSeverity)) {
        fail(`${key}.${id}`, `must be one of ${SEVERITIES.join(', ')}`);
      }
    }
    return t as Record<string, RuleSeverity>;
  };
  const override = (key: string, v: unknown): RuleOverride => {
    const t = table(key, v);
    only(key, t, ['paths', 'disabled', 'thresholds']);
    if (t.paths === undefined) fail(`${key}.paths`, 'is required');
    const paths = strings(`${key}.paths`, t.paths);
    if (paths.length === 0) fail(`${key}.paths`, 'must name at least one glob');
    return {
      paths,
      disabled: t.disabled === undefined ? [] : ruleIds(`${key}.disabled`, t.disabled),
      thresholds: t.thresholds === undefined ? {} : thresholds(`${key}.thresholds`, t.thresholds),
    };
  };
  return { fail, table, only, strings, ruleIds, thresholds, severity, override };
}

/**
 * Parses and validates the text of a rules file (`file` names it in errors).
 * @throws InvalidInputError with field `.cairn/rules.toml[:key]` for bad TOML, an unknown key
 *   or a value of the wrong type.
 */
export function parseRuleConfig(text: string, file: string): RuleConfig {
  const check = checker(file);
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const first = error.message.split('\n')[0] ?? 'invalid TOML';
    throw new InvalidInputError(`${file}:${error.line}:${error.column}: ${first}`, RULES_FILE);
  }
  check.only('', doc, ['disabled', 'ignore', 'thresholds', 'severity', 'overrides']);
  const overrides = doc.overrides ?? [];
  if (!Array.isArray(overrides))
    check.fail('overrides', 'must be an array of tables ([[overrides]])');
  return {
    file,
    thresholds: doc.thresholds === undefined ? {} : check.thresholds('thresholds', doc.thresholds),
    disabled: doc.disabled === undefined ? [] : check.ruleIds('disabled', doc.disabled),
    severity: doc.severity === undefined ? {} : check.severity('severity', doc.severity),
    ignore: doc.ignore === undefined ? [] : check.strings('ignore', doc.ignore),
    overrides: (overrides as unknown[]).map((o, i) => check.override(`overrides[${i}]`, o)),
  };
}

/**
 * Reads `<projectRoot>/.cairn/rules.toml`. A missing file gives DEFAULT_RULE_CONFIG.
 * @throws InvalidInputError (`path` for a bad root; `.cairn/rules.toml[:key]` for a file that
 *   cannot be read, is too large, is not TOML or does not validate).
 */
export async function loadRuleConfig(projectRoot: string): Promise<RuleConfig> {
  if (typeof projectRoot !== 'string' || projectRoot === '') {
    throw new InvalidInputError('project root must be a non-empty path', 'path');
  }
  const file = join(projectRoot, RULES_FILE);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return DEFAULT_RULE_CONFIG;
    throw new InvalidInputError(`${file}: cannot be read (${code ?? String(error)})`, RULES_FILE);
  }
  if (bytes.length > MAX_RULES_FILE_BYTES) {
    throw new InvalidInputError(
      `${file}: ${bytes.length} bytes, over the ${MAX_RULES_FILE_BYTES} read`,
      RULES_FILE,
    );
  }
  return parseRuleConfig(bytes.toString('utf8'), file);
}
