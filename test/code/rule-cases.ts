// Test helpers for the rule tests: run one rule over a snippet, and the table-driven suite
// that gives a rule a reported sample and a near miss in every language it claims.
// Test-only (imported by *.test.ts); never imported by the module itself.
import { describe, expect, it } from 'vitest';

import type { CodeLanguage } from '../../src/code/languages.js';
import { RULES } from '../../src/code/rules/registry.js';
import type { RuleFinding, RuleThresholds } from '../../src/code/rules/types.js';
import { validateSource } from '../../src/code/rules/validate.js';

/** language, a sample that must be reported, a near miss that must not, the reported line. */
export type Case = readonly [language: CodeLanguage, bad: string, good: string, line: number];

/** The findings of `rule` alone over `text`. */
export function run(
  rule: string,
  language: CodeLanguage,
  text: string,
  thresholds?: Partial<RuleThresholds>,
): Promise<RuleFinding[]> {
  return validateSource(
    { path: 'f', language, text },
    thresholds === undefined ? { rules: [rule] } : { rules: [rule], thresholds },
  );
}

/** Every claimed language has a case, and every case's language is claimed. */
function claimed(rule: string, cases: readonly Case[]): void {
  const languages = RULES.find((r) => r.id === rule)?.languages ?? [];
  expect([...languages].sort()).toEqual(cases.map((c) => c[0]).sort());
}

/** The suite: one finding at the right line for each bad sample, none for each near miss. */
export function suite(
  rule: string,
  cases: readonly Case[],
  thresholds?: Partial<RuleThresholds>,
): void {
  describe(rule, () => {
    it('claims exactly the languages tested here', () => claimed(rule, cases));
    it.each(cases)('%s: reported', async (language, bad, _good, line) => {
      const findings = await run(rule, language, bad, thresholds);
      expect(findings.map((f) => [f.rule, f.line])).toEqual([[rule, line]]);
    });
    it.each(cases)('%s: near miss not reported', async (language, _bad, good) => {
      expect(await run(rule, language, good, thresholds)).toEqual([]);
    });
  });
}
