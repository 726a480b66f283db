// The rule registry: every rule the engine knows, in listing order, and `listRules` for
// list_rules. Adding a rule means adding it to RULES; nothing here runs a rule.
import { CODE_LANGUAGES } from '../languages.js';
import { CATCH_RULES } from './catch-rules.js';
import { DUPLICATE_BLOCK_RULE, DUPLICATE_RULE } from './duplicate-rule.js';
import { METRIC_RULES } from './metric-rules.js';
import { SECRET_RULE } from './secret-rule.js';
import { SECURITY_RULES } from './security-rules.js';
import { SHELL_RULE } from './shell-rule.js';
import { SQL_RULE } from './sql-rule.js';
import { STRUCTURE_RULES } from './structure-rules.js';
import { SYNTAX_RULES } from './syntax-rules.js';
import { RULE_CATEGORIES, type Rule, type RuleInfo } from './types.js';

const byCategory = (a: Rule, b: Rule): number =>
  RULE_CATEGORIES.indexOf(a.category) - RULE_CATEGORIES.indexOf(b.category);

/** All rules, ids unique (checked by a test), grouped by category in the order. */
export const RULES: readonly Rule[] = [
  ...METRIC_RULES,
  ...STRUCTURE_RULES,
  ...CATCH_RULES,
  ...SYNTAX_RULES,
  SECRET_RULE,
  ...SECURITY_RULES,
  SHELL_RULE,
  SQL_RULE,
  DUPLICATE_RULE,
  DUPLICATE_BLOCK_RULE,
].sort(byCategory);

/** What `list_rules` returns: id, category, severity, languages, description, threshold. */
export function listRules(): RuleInfo[] {
  return RULES.map(
    ({ id, category, severity, languages, description, threshold, defaultThreshold }) => ({
      id,
      category,
      severity,
      languages: CODE_LANGUAGES.filter((l) => languages.includes(l)),
      description,
      ...(threshold === undefined ? {} : { threshold }),
      ...(defaultThreshold === undefined ? {} : { defaultThreshold }),
    }),
  );
}
