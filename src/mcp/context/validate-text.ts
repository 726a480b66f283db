// The readable text of the validate family's answers (validate_code, analyze_code, list_rules).
// structuredContent carries the complete answer; this is what a model or a person reads first.
import type {
  DirectoryAnalysis,
  FileAnalysis,
  FileCounts,
  RuleInfo,
  Truncation,
  ValidateReport,
} from '../../code/index.js';
import { countsText, num, table } from './format.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The lines about files the run skipped, failed or did not read (none when nothing to say). */
function fileLines(files: FileCounts): string[] {
  const lines: string[] = [];
  if (Object.keys(files.skippedByWalk).length > 0) {
    // The walk asked only for code files: `extension` means "not a code file".
    const { extension, ...others } = files.skippedByWalk;
    const shown = extension === undefined ? others : { ...others, 'not code': extension };
    lines.push(`skipped by the walk: ${countsText(shown)}`);
  }
  if (Object.keys(files.skipped).length > 0) lines.push(`skipped: ${countsText(files.skipped)}`);
  if (files.failedCount > 0) {
    lines.push(`failed (${files.failedCount}):`);
    for (const f of files.failed) lines.push(`  ${f.path}: ${f.reason}`);
    if (files.failedCount > files.failed.length) {
      lines.push(`  …and ${files.failedCount - files.failed.length} more`);
    }
  }
  if (files.notRead > 0) lines.push(`not read: ${plural(files.notRead, 'file')}`);
  return lines;
}

const truncationLines = (t: Truncation & { nothing?: string }): string[] => [
  ...(t.nothing === undefined ? [] : [`nothing to check: ${t.nothing}`]),
  ...(t.truncated ? [`truncated (${t.truncatedBy.join(', ')}): ${t.hint ?? ''}`] : []),
];

/** Which rules file the run obeyed, and what it changed. */
function rulesFileLine(r: ValidateReport): string {
  if (r.rulesFile === null) return 'rules file: none (.cairn/rules.toml not found; defaults)';
  const overrides = r.overrides.length === 0 ? '' : `, ${plural(r.overrides.length, 'override')}`;
  return `rules file: ${r.rulesFile}${overrides}`;
}

export function validateText(r: ValidateReport): string {
  const c = r.counts;
  const severities = `error ${c.bySeverity.error}, warning ${c.bySeverity.warning}, info ${c.bySeverity.info}`;
  const lines = [
    `validate_code ${r.scope} ${r.root}: ${plural(r.files.read, 'file')} checked, ${plural(c.findings, 'finding')} (${severities}) in ${plural(c.files, 'file')}`,
    `rules: ${r.rules.length} selected; by rule: ${countsText(c.byRule)}`,
    rulesFileLine(r),
    ...r.findings.map(
      (f) => `${f.path}:${f.line}:${f.column} ${f.severity} ${f.rule}: ${f.message}`,
    ),
    ...fileLines(r.files),
    ...truncationLines(r),
  ];
  return lines.join('\n');
}

export function fileAnalysisText(r: FileAnalysis): string {
  const m = r.file;
  const head = [
    `analyze_code ${r.path} (${m.language}): ${m.lines} lines, ${m.sloc} SLOC, ${m.commentLines} comment, ${m.blankLines} blank`,
    `file: cyclomatic ${m.cyclomatic}, cognitive ${m.cognitive}, max nesting ${m.maxNesting}, Halstead volume ${num(m.halstead.volume)}, maintainability ${num(m.maintainability)}${m.hasSyntaxErrors ? ' (syntax errors: measured what parsed)' : ''}${m.truncated ? ' (budget ran out: partial)' : ''}`,
    `functions (${r.functionCount}):`,
  ];
  const rows = [
    ['lines', 'name', 'SLOC', 'cyclomatic', 'cognitive', 'nesting', 'params', 'volume', 'MI'],
    ...m.functions.map((f) => [
      `${f.startLine}-${f.endLine}`,
      f.name,
      String(f.sloc),
      String(f.cyclomatic),
      String(f.cognitive),
      String(f.maxNesting),
      String(f.parameters),
      num(f.halstead.volume),
      num(f.maintainability),
    ]),
  ];
  return [...head, ...(m.functions.length > 0 ? table(rows) : []), ...truncationLines(r)].join(
    '\n',
  );
}

export function directoryAnalysisText(r: DirectoryAnalysis): string {
  const t = r.totals;
  const rows = [
    ['path', 'language', 'lines', 'SLOC', 'cyclomatic', 'cognitive', 'volume', 'MI', 'functions'],
    ...r.summaries.map((s) => [
      s.path,
      s.language,
      String(s.lines),
      String(s.sloc),
      String(s.cyclomatic),
      String(s.cognitive),
      num(s.halsteadVolume),
      num(s.maintainability),
      String(s.functions),
    ]),
  ];
  const hot = r.hotspots.map(
    (h) =>
      `  ${h.path}:${h.startLine} ${h.name}: cognitive ${h.cognitive}, cyclomatic ${h.cyclomatic}, ${h.sloc} SLOC, maintainability ${num(h.maintainability)}`,
  );
  return [
    `analyze_code ${r.root} (directory): ${plural(t.files, 'file')}, ${t.lines} lines, ${t.sloc} SLOC, ${plural(t.functions, 'function')}`,
    ...(r.summaries.length > 0 ? table(rows) : []),
    ...(hot.length > 0 ? ['most complex functions:', ...hot] : []),
    ...fileLines(r.files),
    ...truncationLines(r),
  ].join('\n');
}

export function rulesText(rules: readonly RuleInfo[], all: number): string {
  const rows = rules.map((r) => [
    r.id,
    r.category,
    r.severity,
    r.languages.length === all ? `all ${all} languages` : r.languages.join(','),
    r.threshold === undefined ? '' : `${r.threshold} > ${r.defaultThreshold ?? ''}`,
  ]);
  const described = rules.map((r) => `  ${r.id}: ${r.description}`);
  return [
    `${plural(rules.length, 'rule')}:`,
    ...table(rows),
    'what each reports:',
    ...described,
  ].join('\n');
}
