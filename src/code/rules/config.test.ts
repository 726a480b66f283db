// The project rules file: a missing file is the defaults, a valid one is read whole, every
// invalid shape is an InvalidInputError naming the key and the file (never a crash), and the
// result applied to paths: ignores, overrides, and the call's own options winning.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/errors.js';
import { pathOptions } from './config-paths.js';
import {
  DEFAULT_RULE_CONFIG,
  loadRuleConfig,
  MAX_RULES_FILE_BYTES,
  parseRuleConfig,
  RULES_FILE,
} from './config.js';
import { validateSource } from './validate.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-rules-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(text: string): string {
  mkdirSync(join(root, '.cairn'), { recursive: true });
  const file = join(root, RULES_FILE);
  writeFileSync(file, text);
  return file;
}

const VALID = `
disabled = ["todo-comment"]
ignore = ["vendor/**", "**/*.generated.ts"]

[thresholds]
cyclomatic = 12
functionLength = 80

[severity]
debug-print = "error"

[[overrides]]
paths = ["test/**"]
disabled = ["duplicate-block"]
thresholds = { functionLength = 200 }
`;

describe('loadRuleConfig', () => {
  it('a project without the file gets the defaults', async () => {
    expect(await loadRuleConfig(root)).toEqual(DEFAULT_RULE_CONFIG);
  });

  it('reads every section of a valid file', async () => {
    const file = write(VALID);
    expect(await loadRuleConfig(root)).toEqual({
      file,
      disabled: ['todo-comment'],
      ignore: ['vendor/**', '**/*.generated.ts'],
      thresholds: { cyclomatic: 12, functionLength: 80 },
      severity: { 'debug-print': 'error' },
      overrides: [
        { paths: ['test/**'], disabled: ['duplicate-block'], thresholds: { functionLength: 200 } },
      ],
    });
  });

  it('refuses a file it cannot read, a huge file and a bad root', async () => {
    mkdirSync(join(root, RULES_FILE), { recursive: true }); // a directory where the file goes
    await expect(loadRuleConfig(root)).rejects.toMatchObject({ field: RULES_FILE });
    rmSync(join(root, '.cairn'), { recursive: true });
    write(`# ${'x'.repeat(MAX_RULES_FILE_BYTES)}\n`);
    await expect(loadRuleConfig(root)).rejects.toThrow(/over the/);
    await expect(loadRuleConfig('')).rejects.toMatchObject({ field: 'path' });
  });
});

/** Each invalid text, the key it must name (the field is `.cairn/rules.toml:<key>`). */
const INVALID: readonly (readonly [string, string | null])[] = [
  ['colour = "red"', 'colour'],
  ['disabled = "todo-comment"', 'disabled'],
  ['disabled = ["todo-comment", 3]', 'disabled[1]'],
  ['disabled = ["no-such-rule"]', 'disabled[0]'],
  ['ignore = [""]', 'ignore[0]'],
  ['thresholds = 3', 'thresholds'],
  ['[thresholds]\ncolour = 3', 'thresholds.colour'],
  ['[thresholds]\ncyclomatic = "12"', 'thresholds.cyclomatic'],
  ['[thresholds]\nnesting = -1', 'thresholds.nesting'],
  ['[severity]\nno-such-rule = "error"', 'severity.no-such-rule'],
  ['[severity]\ndebug-print = "fatal"', 'severity.debug-print'],
  ['[overrides]\npaths = ["a"]', 'overrides'],
  ['[[overrides]]\ndisabled = ["todo-comment"]', 'overrides[0].paths'],
  ['[[overrides]]\npaths = []', 'overrides[0].paths'],
  [
    '[[overrides]]\npaths = ["a"]\n[[overrides]]\npaths = ["b"]\nrules = ["x"]',
    'overrides[1].rules',
  ],
  [
    '[[overrides]]\npaths = ["a"]\nthresholds = { methods = true }',
    'overrides[0].thresholds.methods',
  ],
  ['disabled = [', null],
];

describe('parseRuleConfig refusals', () => {
  it.each(INVALID)('%j names its key and the file', (text, key) => {
    let error: unknown;
    try {
      parseRuleConfig(text, '/p/.cairn/rules.toml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    const refusal = error as InvalidInputError;
    expect(refusal.field).toBe(key === null ? RULES_FILE : `${RULES_FILE}:${key}`);
    expect(refusal.message).toContain('/p/.cairn/rules.toml');
    if (key !== null) expect(refusal.message).toContain(key);
  });

  it('a TOML syntax error says where', () => {
    expect(() => parseRuleConfig('a = 1\ndisabled = [\n', 'r.toml')).toThrow(/r\.toml:3:/);
  });
});

describe('pathOptions', () => {
  const config = parseRuleConfig(VALID, 'r.toml');
  const optionsFor = pathOptions(config);

  it('ignores files matching `ignore`', () => {
    expect(optionsFor('vendor/lib/a.js')).toBeNull();
    expect(optionsFor('./src/api.generated.ts')).toBeNull();
    expect(optionsFor('src/a.ts')).not.toBeNull();
  });

  it('applies the project settings, then matching overrides, then the call', () => {
    expect(optionsFor('src/a.ts')).toEqual({
      thresholds: { cyclomatic: 12, functionLength: 80 },
      disabled: ['todo-comment'],
      severity: { 'debug-print': 'error' },
    });
    expect(
      optionsFor('test/a.test.ts', { rules: ['empty-catch'], thresholds: { cyclomatic: 5 } }),
    ).toEqual({
      rules: ['empty-catch'],
      thresholds: { cyclomatic: 5, functionLength: 200 },
      disabled: ['todo-comment', 'duplicate-block'],
      severity: { 'debug-print': 'error' },
    });
  });

  it('a path outside the project gets no override and is never ignored', () => {
    expect(optionsFor('../test/vendor/a.ts')?.thresholds).toEqual({
      cyclomatic: 12,
      functionLength: 80,
    });
    expect(optionsFor('/abs/vendor/a.ts')).not.toBeNull();
  });
});

describe('validateSource with disabled rules and severities', () => {
  const input = {
    path: 'a.js',
    language: 'javascript' as const,
    text: 'console.log(1); // TODO\n',
  };

  it('a severity override replaces the rule’s own', async () => {
    const findings = await validateSource(input, { severity: { 'debug-print': 'error' } });
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['debug-print', 'error'],
      ['todo-comment', 'info'],
    ]);
  });

  it('a disabled rule is skipped unless the call names it', async () => {
    expect(
      (await validateSource(input, { disabled: ['todo-comment'] })).map((f) => f.rule),
    ).toEqual(['debug-print']);
    const named = await validateSource(input, {
      disabled: ['todo-comment'],
      rules: ['todo-comment'],
    });
    expect(named.map((f) => f.rule)).toEqual(['todo-comment']);
  });

  it('refuses unknown ids and severities naming the field', async () => {
    await expect(validateSource(input, { disabled: ['nope'] })).rejects.toMatchObject({
      field: 'disabled',
    });
    await expect(validateSource(input, { severity: { nope: 'error' } })).rejects.toMatchObject({
      field: 'severity',
    });
    await expect(
      validateSource(input, { severity: { 'debug-print': 'loud' as never } }),
    ).rejects.toMatchObject({
      field: 'severity',
    });
  });

  it('end to end: the file on disk changes what validateSource reports', async () => {
    write('disabled = ["todo-comment"]\n[severity]\ndebug-print = "warning"\n');
    const options = pathOptions(await loadRuleConfig(root))('a.js');
    expect(options).not.toBeNull();
    const findings = await validateSource(input, options ?? {});
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['debug-print', 'warning']]);
  });
});
