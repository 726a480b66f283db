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

/** A refusal naming the key path and the file. */
function fail(file: string, key: string, problem: string): never {
  throw new InvalidInputError(`${file}: ${key}: ${problem}`, `${RULES_FILE}:${key}`);
}

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function table(file: string, key: string, v: unknown): Table {
  return isTable(v) ? v : fail(file, key, 'must be a table');
}

/** Refuses any key of `t` not in `allowed`. */
function only(file: string, key: string, t: Table, allowed: readonly string[]): void {
  for (const k of Object.keys(t)) {
    if (allowed.includes(k)) continue;
    fail(file, key === '' ? k : `${key}.${k}`, `unknown key (known: ${allowed.join(', ')})`);
  }
}

function strings(file: string, key: string, v: unknown): string[] {
  if (!Array.isArray(v)) return fail(file, key, 'must be an array of strings');
  return v.map((s, i) =>
    typeof s === 'string' && s.trim() !== ''
      ? s
      : fail(file, `${key}[${i}]`, 'must be a non-empty string'),
  );
}

function ruleIds(file: string, key: string, v: unknown): string[] {
  return strings(file, key, v).map((id, i) =>
    RULE_IDS.has(id) ? id : fail(file, `${key}[${i}]`, `unknown rule id '${id}' (see list_rules)`),
  );
}

function thresholds(file: string, key: string, v: unknown): Partial<RuleThresholds> {
  const t = table(file, key, v);
  only(file, key, t, Object.keys(DEFAULT_THRESHOLDS));
  for (const [k, value] of Object.entries(t)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      fail(file, `${key}.${k}`, 'must be a number ≥ 0');
    }
  }
  return t as Partial<RuleThresholds>;
}

function severities(file: string, key: string, v: unknown): Record<string, RuleSeverity> {
  const t = table(file, key, v);
  for (const [id, value] of Object.entries(t)) {
    if (!RULE_IDS.has(id)) fail(file, `${key}.${id}`, `unknown rule id '${id}' (see list_rules)`);
    if (!SEVERITIES.includes(value as RuleSeverity)) {
      fail(file, `${key}.${id}`, `must be one of ${SEVERITIES.join(', ')}`);
    }
  }
  return t as Record<string, RuleSeverity>;
}

function override(file: string, key: string, v: unknown): RuleOverride {
  const t = table(file, key, v);
  only(file, key, t, ['paths', 'disabled', 'thresholds']);
  if (t.paths === undefined) fail(file, `${key}.paths`, 'is required');
  const paths = strings(file, `${key}.paths`, t.paths);
  if (paths.length === 0) fail(file, `${key}.paths`, 'must name at least one glob');
  return {
    paths,
    disabled: t.disabled === undefined ? [] : ruleIds(file, `${key}.disabled`, t.disabled),
    thresholds:
      t.thresholds === undefined ? {} : thresholds(file, `${key}.thresholds`, t.thresholds),
  };
}

/**
 * Parses and validates the text of a rules file (`file` names it in errors).
 * @throws InvalidInputError with field `.cairn/rules.toml[:key]` for bad TOML, an unknown key
 *   or a value of the wrong type.
 */
export function parseRuleConfig(text: string, file: string): RuleConfig {
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const first = error.message.split('\n')[0] ?? 'invalid TOML';
    throw new InvalidInputError(`${file}:${error.line}:${error.column}: ${first}`, RULES_FILE);
  }
  only(file, '', doc, ['disabled', 'ignore', 'thresholds', 'severity', 'overrides']);
  const overrides = doc.overrides ?? [];
  if (!Array.isArray(overrides)) {
    fail(file, 'overrides', 'must be an array of tables ([[overrides]])');
  }
  const has = (key: string): boolean => doc[key] !== undefined;
  return {
    file,
    thresholds: has('thresholds') ? thresholds(file, 'thresholds', doc.thresholds) : {},
    disabled: has('disabled') ? ruleIds(file, 'disabled', doc.disabled) : [],
    severity: has('severity') ? severities(file, 'severity', doc.severity) : {},
    ignore: has('ignore') ? strings(file, 'ignore', doc.ignore) : [],
    overrides: (overrides as unknown[]).map((o, i) => override(file, `overrides[${i}]`, o)),
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
