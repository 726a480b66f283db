// The metric rules: complexity and size limits checked against the numbers analyzeTree already
// computed (FunctionMetrics / FileMetrics). They never walk the tree themselves.
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import type { FunctionMetrics } from '../metrics/index.js';
import {
  DEFAULT_THRESHOLDS,
  type RawFinding,
  type Rule,
  type RuleCategory,
  type RuleThresholds,
} from './types.js';

/** Languages the metric rules are tested in: all 13 that analyzeTree measures. */
export const METRIC_LANGUAGES: readonly CodeLanguage[] = CODE_LANGUAGES;

interface FunctionLimit {
  readonly id: string;
  readonly category: RuleCategory;
  readonly threshold: keyof RuleThresholds;
  readonly measure: (fn: FunctionMetrics) => number;
  readonly what: string;
  readonly description: string;
}

function functionRule(limit: FunctionLimit): Rule {
  return {
    id: limit.id,
    category: limit.category,
    severity: 'warning',
    languages: METRIC_LANGUAGES,
    description: limit.description,
    threshold: limit.threshold,
    defaultThreshold: DEFAULT_THRESHOLDS[limit.threshold],
    check(context): RawFinding[] {
      const max = context.thresholds[limit.threshold];
      return context.metrics.functions
        .filter((fn) => limit.measure(fn) > max)
        .map((fn) => ({
          line: fn.startLine,
          column: 1,
          message: `${fn.name} has ${limit.what} ${limit.measure(fn)} (over ${max})`,
        }));
    },
  };
}

const FUNCTION_LIMITS: readonly FunctionLimit[] = [
  {
    id: 'cyclomatic-complexity',
    category: 'complexity',
    threshold: 'cyclomatic',
    measure: (fn) => fn.cyclomatic,
    what: 'cyclomatic complexity',
    description: 'A function whose cyclomatic (McCabe) complexity is over the threshold.',
  },
  {
    id: 'cognitive-complexity',
    category: 'complexity',
    threshold: 'cognitive',
    measure: (fn) => fn.cognitive,
    what: 'cognitive complexity',
    description:
      "A function whose cognitive complexity (SonarSource's definition) is over the threshold.",
  },
  {
    id: 'nesting-depth',
    category: 'complexity',
    threshold: 'nesting',
    measure: (fn) => fn.maxNesting,
    what: 'nesting depth',
    description: 'A function that nests control structures deeper than the threshold.',
  },
  {
    id: 'function-length',
    category: 'size',
    threshold: 'functionLength',
    measure: (fn) => fn.length,
    what: 'length',
    description: 'A function longer (first to last line) than the threshold.',
  },
  {
    id: 'parameter-count',
    category: 'size',
    threshold: 'parameters',
    measure: (fn) => fn.parameters,
    what: 'parameter count',
    description: 'A function taking more parameters than the threshold.',
  },
];

const fileLength: Rule = {
  id: 'file-length',
  category: 'size',
  severity: 'warning',
  languages: METRIC_LANGUAGES,
  description: 'A file with more physical lines than the threshold.',
  threshold: 'fileLength',
  defaultThreshold: DEFAULT_THRESHOLDS.fileLength,
  check(context): RawFinding[] {
    const max = context.thresholds.fileLength;
    const lines = context.metrics.lines;
    if (lines <= max) return [];
    return [{ line: 1, column: 1, message: `file has ${lines} lines (over ${max})` }];
  },
};

/** The six metric rules, in listing order. */
export const METRIC_RULES: readonly Rule[] = [...FUNCTION_LIMITS.map(functionRule), fileLength];
