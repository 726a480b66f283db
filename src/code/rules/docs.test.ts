// docs/code-context.md stays true to the engine: its rule table lists every rule of
// listRules() in order with the same category, severity, languages and threshold, and its
// rules-file example is a valid rules file.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { parseRuleConfig } from './config.js';
import { listRules } from './registry.js';

const DOC = readFileSync(new URL('../../../docs/code-context.md', import.meta.url), 'utf8');
const RULES_START = DOC.indexOf('\n## Rules\n');
const RULES_END = DOC.indexOf('\n## ', RULES_START + 1);
const RULES_SECTION = DOC.slice(RULES_START, RULES_END === -1 ? undefined : RULES_END);

const SHORT: Readonly<Record<string, CodeLanguage>> = { ts: 'typescript', js: 'javascript' };

/** The languages a table cell names: `all 13`, `all but c, cpp`, a list, or `same`. */
function languagesOf(cell: string, previous: readonly CodeLanguage[]): CodeLanguage[] {
  if (cell === 'same') return [...previous];
  if (cell === 'all 13') return [...CODE_LANGUAGES];
  const names = (list: string) =>
    list.split(',').map((l) => SHORT[l.trim()] ?? (l.trim() as CodeLanguage));
  if (cell.startsWith('all but ')) {
    const but = new Set(names(cell.slice('all but '.length)));
    return CODE_LANGUAGES.filter((l) => !but.has(l));
  }
  return names(cell);
}

interface Row {
  id: string;
  category: string;
  severity: string;
  languages: CodeLanguage[];
  reports: string;
}

function tableRows(): Row[] {
  const rows: Row[] = [];
  for (const line of RULES_SECTION.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const id = /^`([a-z-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (id === undefined) continue;
    const previous = rows[rows.length - 1]?.languages ?? [];
    rows.push({
      id,
      category: cells[2] ?? '',
      severity: cells[3] ?? '',
      languages: languagesOf(cells[4] ?? '', previous),
      reports: cells.slice(5).join('|'),
    });
  }
  return rows;
}

describe('docs/code-context.md', () => {
  const rows = tableRows();

  it('the rule table lists every rule, in listing order, with its category and severity', () => {
    expect(rows.map((r) => [r.id, r.category, r.severity])).toEqual(
      listRules().map((r) => [r.id, r.category, r.severity]),
    );
  });

  it('the table names each rule’s languages and threshold', () => {
    const rules = new Map(listRules().map((r) => [r.id, r]));
    for (const row of rows) {
      const rule = rules.get(row.id);
      expect([row.id, [...row.languages].sort()]).toEqual([
        row.id,
        [...(rule?.languages ?? [])].sort(),
      ]);
      if (rule?.threshold !== undefined) {
        expect(row.reports, row.id).toContain(`\`${rule.threshold}\` (${rule.defaultThreshold})`);
      }
    }
  });

  it('the rules-file example is a valid rules file', () => {
    const example = /### The rules file[\s\S]*?```toml\n([\s\S]*?)```/.exec(RULES_SECTION)?.[1];
    expect(example).toBeDefined();
    const config = parseRuleConfig(example ?? '', 'docs example');
    expect(config.overrides.length).toBeGreaterThan(0);
    expect(Object.keys(config.severity).length).toBeGreaterThan(0);
  });
});
