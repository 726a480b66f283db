// The rule engine (validate_code, list_rules): the public surface of this folder.
export {
  DEFAULT_RULE_CONFIG,
  loadRuleConfig,
  MAX_RULES_FILE_BYTES,
  parseRuleConfig,
  type RuleConfig,
  type RuleOverride,
  RULES_FILE,
} from './config.js';
export { type PathOptions, pathOptions } from './config-paths.js';
export {
  createDuplicateScan,
  DEFAULT_MAX_DUPLICATE_TOKENS,
  type DuplicateFinding,
  type DuplicateOptions,
  type DuplicateReport,
  type DuplicateScan,
  findDuplicates,
  type SourceFile,
} from './project-duplicates.js';
export { listRules, RULES } from './registry.js';
export {
  DEFAULT_THRESHOLDS,
  RULE_CATEGORIES,
  type Rule,
  type RuleCategory,
  type RuleContext,
  type RuleFinding,
  type RuleInfo,
  type RuleSeverity,
  type RuleThresholds,
} from './types.js';
export {
  MAX_VALIDATE_CHARS,
  selectRules,
  thresholdsOf,
  type ValidateInput,
  type ValidateOptions,
  validateSource,
} from './validate.js';
