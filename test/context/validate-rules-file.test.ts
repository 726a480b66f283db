// validate_code through a real SDK client with a project rules file (.cairn/rules.toml): a
// lowered threshold, a disabled rule, a severity, an ignore glob, an override for a folder, the
// ancestor search of a file (bounded by the allowed root), refusals naming key and file.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { ValidateReport } from '../../src/code/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, linkedClient } from '../helpers.js';
import {
  callContext,
  contextCore,
  HYGIENE,
  makeProject,
  PICK_TS,
  type Project,
} from './fixtures.js';

describe('cairn-context: validate_code and .cairn/rules.toml', () => {
  let project: Project;
  let client: Client;
  let close: () => Promise<void>;

  const validate = (args: Record<string, unknown>) =>
    callContext<ValidateReport>(client, 'validate_code', args);
  const rulesFile = (text: string): string => project.write('.cairn/rules.toml', text);

  beforeEach(async () => {
    project = makeProject();
    const t = await contextCore(project);
    client = await linkedClient(createContextServer(t.core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  it('without a rules file: defaults, rulesFile null, said in the text', async () => {
    const { text, data } = await validate({ path: project.root });
    expect(data.rulesFile).toBeNull();
    expect(data.overrides).toEqual([]);
    expect(data.thresholds.cyclomatic).toBe(10);
    expect(data.counts.byRule['cyclomatic-complexity']).toBeUndefined();
    expect(text.split('\n')[2]).toBe('rules file: none (.cairn/rules.toml not found; defaults)');
  });

  it('a lowered threshold flags a function, reported in thresholds and the text', async () => {
    const file = rulesFile('[thresholds]\ncyclomatic = 3\n');
    const { text, data } = await validate({ path: project.root, rules: ['cyclomatic-complexity'] });
    expect(data.rulesFile).toBe(file);
    expect(data.thresholds.cyclomatic).toBe(3);
    expect(data.findings.map((f) => [f.path, f.line, f.rule, f.message])).toEqual([
      ['src/pick.ts', 1, 'cyclomatic-complexity', 'pick has cyclomatic complexity 5 (over 3)'],
    ]);
    expect(text).toContain(`rules file: ${file}`);
  });

  it('a disabled rule is not run unless the call names it', async () => {
    rulesFile('disabled = ["todo-comment"]\n');
    const all = await validate({ path: project.root });
    expect(all.data.rules).not.toContain('todo-comment');
    expect(all.data.counts.byRule['todo-comment']).toBeUndefined();
    expect(all.data.counts.byRule['debug-print']).toBe(2);
    const named = await validate({ path: project.root, rules: HYGIENE });
    expect(named.data.counts.byRule).toEqual({ 'todo-comment': 2, 'debug-print': 2 });
  });

  it('a severity override changes the findings and the counts by severity', async () => {
    rulesFile('[severity]\ndebug-print = "error"\n');
    const { text, data } = await validate({ path: project.root, rules: HYGIENE });
    expect(data.findings.map((f) => [f.path, f.rule, f.severity])).toEqual([
      ['src/load.ts', 'todo-comment', 'info'],
      ['src/load.ts', 'debug-print', 'error'],
      ['tools/f.py', 'debug-print', 'error'],
      ['tools/f.py', 'todo-comment', 'info'],
    ]);
    expect(data.counts.bySeverity).toEqual({ error: 2, warning: 0, info: 2 });
    expect(text).toContain('src/load.ts:3:3 error debug-print: ');
  });

  it('an ignore glob skips files unread, counted with the reason', async () => {
    rulesFile('ignore = ["tools/**"]\n');
    const { text, data } = await validate({ path: project.root, rules: HYGIENE });
    expect(data.files).toMatchObject({ read: 2, skipped: { 'rules.toml ignore': 1 } });
    expect(data.findings.map((f) => f.path)).toEqual(['src/load.ts', 'src/load.ts']);
    expect(text).toContain('skipped: rules.toml ignore 1');
    const file = await validate({ path: join(project.root, 'tools/f.py') });
    expect(file.data.files).toMatchObject({ read: 0, skipped: { 'rules.toml ignore': 1 } });
    expect(file.data.counts.findings).toBe(0);
    expect(file.text).toContain('nothing to check: ');
    rulesFile('ignore = ["**/*"]\n');
    const none = await validate({ path: project.root });
    expect(none.data.nothing).toBe(
      `all 3 code files are ignored by ${join(project.root, '.cairn/rules.toml')} (ignore)`,
    );
  });

  it('a subdirectory run obeys the project root rules file, its globs relative to that root', async () => {
    const file = rulesFile('ignore = ["src/load.ts"]\n[thresholds]\ncyclomatic = 3\n');
    const { data } = await validate({
      path: join(project.root, 'src'),
      rules: ['cyclomatic-complexity', ...HYGIENE],
    });
    expect(data.rulesFile).toBe(file);
    expect(data.thresholds.cyclomatic).toBe(3);
    expect(data.files).toMatchObject({ skipped: { 'rules.toml ignore': 1 } });
    expect(data.findings.map((f) => [f.path, f.rule])).toEqual([
      ['pick.ts', 'cyclomatic-complexity'],
    ]);
  });

  it('an override applies its thresholds and disabled rules to its folder only', async () => {
    project.write('tools/pick.ts', PICK_TS);
    rulesFile(
      [
        '[[overrides]]',
        'paths = ["src/**"]',
        'disabled = ["debug-print"]',
        'thresholds = { cyclomatic = 3 }',
        '',
      ].join('\n'),
    );
    const { data } = await validate({
      path: project.root,
      rules: [],
      category: 'complexity',
    });
    expect(data.findings.map((f) => [f.path, f.rule])).toEqual([
      ['src/pick.ts', 'cyclomatic-complexity'],
    ]);
    expect(data.overrides).toEqual([
      { paths: ['src/**'], disabled: ['debug-print'], thresholds: { cyclomatic: 3 } },
    ]);
    // Project-wide thresholds are the defaults; the override's are per file.
    expect(data.thresholds.cyclomatic).toBe(10);
    const hygiene = await validate({ path: project.root, category: 'hygiene' });
    expect(
      hygiene.data.findings.filter((f) => f.rule === 'debug-print').map((f) => f.path),
    ).toEqual(['tools/f.py']);
  });

  it('a file finds the rules file of its nearest ancestor holding .cairn/', async () => {
    const file = rulesFile(
      '[thresholds]\ncyclomatic = 4\n[[overrides]]\npaths = ["src/deep/**"]\nthresholds = { cyclomatic = 2 }\n',
    );
    project.write('src/deep/er/pick.ts', PICK_TS);
    const near = await validate({ path: join(project.root, 'src/pick.ts') });
    expect(near.data.rulesFile).toBe(file);
    expect(near.data.thresholds.cyclomatic).toBe(4);
    expect(near.data.counts.byRule['cyclomatic-complexity']).toBe(1);
    const deep = await validate({ path: join(project.root, 'src/deep/er/pick.ts') });
    expect(deep.data.thresholds.cyclomatic).toBe(2);
    expect(deep.text).toContain(`rules file: ${file}, 1 override`);
    // A nearer .cairn/ without a rules file wins: the defaults.
    project.write('src/deep/.cairn/notes.txt', 'not rules\n');
    const nearer = await validate({ path: join(project.root, 'src/deep/er/pick.ts') });
    expect(nearer.data.rulesFile).toBeNull();
    expect(nearer.data.thresholds.cyclomatic).toBe(10);
  });

  it('the ancestor search stops at the allowed root', async () => {
    rulesFile('[thresholds]\ncyclomatic = 1\n');
    const inner = project.write('inner/pick.ts', PICK_TS);
    const t = await contextCore(project, undefined, { codeRoots: [join(project.root, 'inner')] });
    const narrow = await linkedClient(createContextServer(t.core));
    try {
      const r = await callContext<ValidateReport>(narrow, 'validate_code', { path: inner });
      expect(r.data.rulesFile).toBeNull();
      expect(r.data.thresholds.cyclomatic).toBe(10);
    } finally {
      await narrow.close();
      await t.close();
    }
    const wide = await validate({ path: inner });
    expect(wide.data.rulesFile).toBe(join(project.root, '.cairn/rules.toml'));
  });

  it('a malformed or unknown rules file is a tool error naming the file and the key', async () => {
    const file = rulesFile('[thresholds\ncyclomatic = 3\n');
    const bad = await callInvalid(client, 'validate_code', { path: project.root });
    expect(bad).toMatch(/^invalid args: \.cairn\/rules\.toml: /);
    expect(bad).toContain(`${file}:1:`);
    rulesFile('[thresholds]\ncyclomatc = 3\n');
    for (const path of [project.root, join(project.root, 'src/load.ts')]) {
      expect(await callInvalid(client, 'validate_code', { path })).toBe(
        `invalid args: .cairn/rules.toml:thresholds.cyclomatc: ${file}: thresholds.cyclomatc: unknown key (known: cyclomatic, cognitive, functionLength, parameters, nesting, fileLength, methods, duplicateLines, duplicateTokens)`,
      );
    }
    rulesFile('[severity]\nno-such-rule = "error"\n');
    expect(await callInvalid(client, 'validate_code', { path: project.root })).toMatch(
      /^invalid args: \.cairn\/rules\.toml:severity\.no-such-rule: .*unknown rule id 'no-such-rule'/,
    );
  });
});
