// The engine: the registry's listing, rule and category selection and their refusals,
// thresholds, sorting, language filtering, and the secret rule (tokens generated at run time,
// so no token-shaped literal is committed).
import { describe, expect, it } from 'vitest';

import { DIGITS, seeded, UPPER } from '../../../test/memory/secrets.js';
import { InvalidInputError } from '../../shared/errors.js';
import type { CodeLanguage } from '../languages.js';
import { listRules, RULES } from './registry.js';
import { DEFAULT_THRESHOLDS, RULE_CATEGORIES } from './types.js';
import { MAX_VALIDATE_CHARS, selectRules, validateSource } from './validate.js';

const r = seeded(20261202);
const AWS_KEY = `AKIA${r.str(16, UPPER + DIGITS)}`;

function refusal(fn: () => unknown): InvalidInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('listRules', () => {
  it('lists every rule once with a known category, languages and a description', () => {
    const rules = listRules();
    expect(rules.length).toBe(RULES.length);
    expect(new Set(rules.map((x) => x.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(RULE_CATEGORIES).toContain(rule.category);
      expect(['error', 'warning', 'info']).toContain(rule.severity);
      expect(rule.languages.length).toBeGreaterThan(0);
      expect(rule.description.length).toBeGreaterThan(10);
    }
  });

  it('gives each metric rule its threshold and default', () => {
    const byId = new Map(listRules().map((x) => [x.id, x]));
    expect(byId.get('cyclomatic-complexity')).toMatchObject({
      threshold: 'cyclomatic',
      defaultThreshold: 10,
    });
    expect(byId.get('cognitive-complexity')).toMatchObject({ defaultThreshold: 15 });
    expect(byId.get('function-length')).toMatchObject({ defaultThreshold: 60 });
    expect(byId.get('parameter-count')).toMatchObject({ defaultThreshold: 5 });
    expect(byId.get('nesting-depth')).toMatchObject({ defaultThreshold: 4 });
    expect(byId.get('file-length')).toMatchObject({ defaultThreshold: 500 });
    expect(byId.get('empty-catch')).not.toHaveProperty('threshold');
    expect(DEFAULT_THRESHOLDS).toEqual({
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
  });
});

describe('selectRules', () => {
  it('filters by ids and by category, and both together', () => {
    expect(selectRules({ rules: ['empty-catch'] }).map((x) => x.id)).toEqual(['empty-catch']);
    expect(selectRules({ category: 'size' }).map((x) => x.id)).toEqual([
      'function-length',
      'parameter-count',
      'file-length',
      'too-many-methods',
    ]);
    expect(selectRules({ category: 'size', rules: ['empty-catch'] })).toEqual([]);
    expect(selectRules({ rules: [] })).toHaveLength(RULES.length);
  });

  it('refuses an unknown rule id naming the field `rules`', () => {
    const error = refusal(() => selectRules({ rules: ['empty-catch', 'no-such-rule'] }));
    expect(error.field).toBe('rules');
    expect(error.message).toContain('no-such-rule');
    expect(error.message).not.toContain('empty-catch,');
  });

  it('refuses an unknown category naming the field `category`', () => {
    const error = refusal(() => selectRules({ category: 'style' }));
    expect(error.field).toBe('category');
    expect(error.message).toContain("'style'");
  });
});

describe('validateSource', () => {
  const text = [
    'function f(a, b, c, d, e, f) {', // 1: parameter-count
    '  console.log(a); // TODO drop', // 2: debug-print at column 3, todo-comment at the marker
    '  try { g(); } catch (x) {}', // 3: empty-catch
    '  return 1;',
    '  g();', // 5: unreachable-code
    '}',
  ].join('\n');

  it('runs every rule once and sorts by line, then column', async () => {
    const findings = await validateSource({ path: 'src/a.js', language: 'javascript', text });
    expect(findings.map((f) => [f.line, f.column, f.rule])).toEqual([
      [1, 1, 'parameter-count'],
      [2, 3, 'debug-print'],
      [2, 22, 'todo-comment'],
      [3, 16, 'empty-catch'],
      [5, 3, 'unreachable-code'],
    ]);
    expect(findings.every((f) => f.path === 'src/a.js')).toBe(true);
  });

  it('honours a category filter', async () => {
    const findings = await validateSource(
      { path: 'a.js', language: 'javascript', text },
      { category: 'error handling' },
    );
    expect(findings.map((f) => f.rule)).toEqual(['empty-catch']);
  });

  it('skips rules that do not claim the language', async () => {
    const rust = 'fn f() {\n    return;\n    g();\n}\n';
    expect(
      await validateSource(
        { path: 'a.rs', language: 'rust', text: rust },
        { rules: ['unreachable-code'] },
      ),
    ).toEqual([]);
  });

  it('refuses bad thresholds, languages and text', async () => {
    const input = { path: 'a.js', language: 'javascript' as CodeLanguage, text: 'x' };
    await expect(validateSource(input, { thresholds: { cyclomatic: -1 } })).rejects.toMatchObject({
      field: 'thresholds',
    });
    await expect(
      validateSource(input, { thresholds: { colour: 1 } as never }),
    ).rejects.toMatchObject({ field: 'thresholds' });
    await expect(
      validateSource({ ...input, language: 'cobol' as CodeLanguage }),
    ).rejects.toMatchObject({ field: 'language' });
    const huge = { ...input, text: 'x'.repeat(MAX_VALIDATE_CHARS + 1) };
    await expect(validateSource(huge)).rejects.toMatchObject({ field: 'text' });
    await expect(validateSource({ ...input, text: 3 as never })).rejects.toMatchObject({
      field: 'text',
    });
    await expect(validateSource(input, { rules: ['nope'] })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });
});

describe('hardcoded-secret', () => {
  const samples: Record<string, { bad: string; good: string }> = {
    typescript: {
      bad: `const a = 1;\nconst key = '${AWS_KEY}';\n`,
      good: 'const a = 1;\nconst key = process.env.AWS_KEY;\n',
    },
    javascript: {
      bad: `const a = 1;\nconst key = '${AWS_KEY}';\n`,
      good: "const a = 1;\nconst key = 'AKIA';\n",
    },
    python: { bad: `a = 1\nKEY = "${AWS_KEY}"\n`, good: 'a = 1\nKEY = os.environ["KEY"]\n' },
    go: {
      bad: `package m\nconst key = "${AWS_KEY}"\n`,
      good: 'package m\nconst key = "not-a-key"\n',
    },
    rust: {
      bad: `fn f() {}\nconst KEY: &str = "${AWS_KEY}";\n`,
      good: 'fn f() {}\nconst KEY: &str = "public";\n',
    },
    java: {
      bad: `class A {\n  String k = "${AWS_KEY}";\n}\n`,
      good: 'class A {\n  String k = System.getenv("K");\n}\n',
    },
    c: {
      bad: `int a;\nconst char *key = "${AWS_KEY}";\n`,
      good: 'int a;\nconst char *key = getenv("KEY");\n',
    },
    cpp: {
      bad: `int a;\nauto key = "${AWS_KEY}";\n`,
      good: 'int a;\nauto key = std::getenv("KEY");\n',
    },
    csharp: {
      bad: `class A {\n  string k = "${AWS_KEY}";\n}\n`,
      good: 'class A {\n  string k = Env.Get("K");\n}\n',
    },
    ruby: { bad: `a = 1\nKEY = '${AWS_KEY}'\n`, good: "a = 1\nKEY = ENV['KEY']\n" },
    php: { bad: `<?php\n$key = '${AWS_KEY}';\n`, good: "<?php\n$key = getenv('KEY');\n" },
    kotlin: {
      bad: `val a = 1\nval key = "${AWS_KEY}"\n`,
      good: 'val a = 1\nval key = System.getenv("KEY")\n',
    },
    tsx: {
      bad: `const a = 1;\nconst key = '${AWS_KEY}';\n`,
      good: 'const a = 1;\nconst key = env.KEY;\n',
    },
  };

  it('claims exactly the languages tested here', () => {
    const claimed = RULES.find((x) => x.id === 'hardcoded-secret')?.languages ?? [];
    expect([...claimed].sort()).toEqual(Object.keys(samples).sort());
  });

  it.each(Object.keys(samples) as CodeLanguage[])(
    '%s: reported on its line, the secret not echoed',
    async (language) => {
      const findings = await validateSource(
        { path: 'k', language, text: samples[language]!.bad },
        { rules: ['hardcoded-secret'] },
      );
      expect(findings.map((f) => [f.line, f.severity])).toEqual([[2, 'error']]);
      expect(findings[0]?.message).toContain('aws-access-key');
      expect(JSON.stringify(findings)).not.toContain(AWS_KEY);
    },
  );

  it.each(Object.keys(samples) as CodeLanguage[])('%s: no secret, no finding', async (language) => {
    expect(
      await validateSource(
        { path: 'k', language, text: samples[language]!.good },
        { rules: ['hardcoded-secret'] },
      ),
    ).toEqual([]);
  });
});
