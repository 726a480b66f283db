// The validate family (spec "Validate Tool Family"): validate_code, analyze_code, list_rules.
// Thin handlers over src/code: paths are checked against Core.codeRoots, progress goes to the
// client when it asked, answers are bounded. No provenance: the spec does not require it here.
import {
  analyzeCodeInput,
  analyzePath,
  CODE_LANGUAGES,
  DEFAULT_THRESHOLDS,
  listRules,
  listRulesInput,
  RULE_CATEGORIES,
  selectRules,
  validateCodeInput,
  validatePath,
} from '../../code/index.js';
import type { Core } from '../../core/index.js';
import type { ProgressReporter } from '../tool.js';
import { type ContextFamily, contextTool } from './family.js';
import {
  directoryAnalysisText,
  fileAnalysisText,
  rulesText,
  validateText,
} from './validate-text.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** Progress per file, at most about 100 reports a run (each whole percent). */
function perFile(
  progress: ProgressReporter | undefined,
): ((done: number, total: number, path: string) => void) | undefined {
  if (progress === undefined) return undefined;
  let lastPercent = -1;
  return (done, total, path) => {
    const percent = Math.floor((done * 100) / Math.max(1, total));
    if (percent === lastPercent && done !== total) return;
    lastPercent = percent;
    progress({ progress: done, total, message: path });
  };
}

/** `o` without its undefined members, so optional arguments stay absent. */
const given = <T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

function validateTools(core: Core) {
  return [
    contextTool({
      name: 'validate_code',
      description:
        'Check source code against the rules (list_rules): `path` is a file or a directory inside the allowed roots; `scope` is `file` or `project` (default: file for a file, project for a directory, which is walked with its .gitignore rules and default exclusions). `rules` (ids, empty = all) and `category` narrow the rules. The project rules file `.cairn/rules.toml` (of the directory itself; for a file, the nearest ancestor holding `.cairn/`) sets thresholds, disabled rules, severities, ignored globs and per-path overrides; with duplicate-block selected, a project run also reports blocks repeated across files (both locations). Returns findings (path, line, column, rule, severity, message) sorted by path and line, exact counts per rule and severity, `rulesFile` (null when none), and `truncated` with a hint when the answer or the run was cut.',
      input: validateCodeInput,
      annotations: { title: 'Validate code', ...READ_ONLY },
      handler: async (a, ctx) => {
        const onProgress = perFile(ctx.progress);
        const report = await validatePath({
          ...given({ scope: a.scope, rules: a.rules, category: a.category, onProgress }),
          path: a.path,
          allowedRoots: core.codeRoots,
          signal: ctx.signal,
        });
        return { text: validateText(report), data: { ...report } };
      },
    }),
    contextTool({
      name: 'analyze_code',
      description:
        'Measure code: for a file, its SLOC, cyclomatic and cognitive complexity, nesting, Halstead volume and maintainability index, and the same per function; for a directory (walked like validate_code), a summary per file, totals and the most complex functions. `path` must lie inside the allowed roots. Answers are bounded (`truncated` with a hint).',
      input: analyzeCodeInput,
      annotations: { title: 'Analyze code', ...READ_ONLY },
      handler: async (a, ctx) => {
        const onProgress = perFile(ctx.progress);
        const report = await analyzePath({
          ...given({ onProgress }),
          path: a.path,
          allowedRoots: core.codeRoots,
          signal: ctx.signal,
        });
        const text =
          report.kind === 'file' ? fileAnalysisText(report) : directoryAnalysisText(report);
        return { text, data: { ...report } };
      },
    }),
    contextTool({
      name: 'list_rules',
      description:
        'List the validation rules: id, category, severity, the languages each is tested in, what it reports, and its threshold (default) where it has one. `rules` (ids) and `category` narrow the list.',
      input: listRulesInput,
      annotations: { title: 'List rules', ...READ_ONLY },
      handler: (a) => {
        const ids = new Set(
          selectRules(given({ rules: a.rules, category: a.category })).map((r) => r.id),
        );
        const rules = listRules().filter((r) => ids.has(r.id));
        const data = {
          rules,
          categories: [...RULE_CATEGORIES],
          thresholds: { ...DEFAULT_THRESHOLDS },
        };
        return Promise.resolve({ text: rulesText(rules, CODE_LANGUAGES.length), data });
      },
    }),
  ];
}

export const validateFamily: ContextFamily = { name: 'validate', tools: validateTools };
