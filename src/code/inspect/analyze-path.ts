// analyze_code over a path: a file's metrics with every function (bounded), or a directory's
// per-file summaries, totals and most complex functions (bounded), each saying what it cut.
// Numbers are as the metrics module computes them (not rounded).
import { analyzeSource, type FileMetrics } from '../metrics/index.js';
import { fitToBudget, truncationHint } from './budget.js';
import { visitDirectory } from './directory.js';
import { readSourceFile, resolveTarget } from './source-file.js';
import {
  type AnalyzeReport,
  DEFAULT_INSPECT_LIMITS,
  type DirectoryAnalysis,
  type FileAnalysis,
  type FileSummary,
  type Hotspot,
  type InspectLimits,
  type InspectTarget,
} from './types.js';

const HOTSPOTS = 10;

function summaryOf(m: FileMetrics): FileSummary {
  return {
    path: m.path,
    language: m.language,
    lines: m.lines,
    sloc: m.sloc,
    cyclomatic: m.cyclomatic,
    cognitive: m.cognitive,
    maxNesting: m.maxNesting,
    halsteadVolume: m.halstead.volume,
    maintainability: m.maintainability,
    functions: m.functions.length,
    hasSyntaxErrors: m.hasSyntaxErrors,
    truncated: m.truncated,
  };
}

const byComplexity = (a: Hotspot, b: Hotspot): number =>
  b.cognitive - a.cognitive || b.cyclomatic - a.cyclomatic || a.path.localeCompare(b.path);

/** Keeps the `HOTSPOTS` most complex functions seen so far in `top`. */
function addHotspots(top: Hotspot[], m: FileMetrics): void {
  for (const f of m.functions) {
    const { name, startLine, endLine, cyclomatic, cognitive, sloc, maintainability } = f;
    top.push({
      path: m.path,
      name,
      startLine,
      endLine,
      cyclomatic,
      cognitive,
      sloc,
      maintainability,
    });
  }
  top.sort(byComplexity);
  top.length = Math.min(top.length, HOTSPOTS);
}

async function analyzeFile(
  real: string,
  shown: string,
  limits: InspectLimits,
): Promise<FileAnalysis> {
  const source = await readSourceFile(real, shown, limits.maxFileBytes);
  const m = await analyzeSource({ path: shown, ...source });
  const functions = fitToBudget(m.functions, limits.maxShown, limits.maxBytes);
  const cut = functions.length < m.functions.length;
  const report: FileAnalysis = {
    kind: 'file',
    path: shown,
    root: real,
    file: { ...m, functions },
    functionCount: m.functions.length,
    truncated: cut,
    truncatedBy: cut ? ['shown'] : [],
  };
  if (cut) {
    const showing = `showing ${functions.length} of ${m.functions.length} functions`;
    report.hint = `${showing}; ${truncationHint(['shown'], 'validate_code with rules such as cognitive-complexity lists only the functions over a threshold')}`;
  }
  return report;
}

async function analyzeDirectory(
  real: string,
  target: InspectTarget,
  limits: InspectLimits,
): Promise<DirectoryAnalysis> {
  const totals = { files: 0, lines: 0, sloc: 0, functions: 0 };
  const hotspots: Hotspot[] = [];
  const dir = await visitDirectory(real, target, limits, async (file) => {
    const m = await analyzeSource(file);
    totals.files++;
    totals.lines += m.lines;
    totals.sloc += m.sloc;
    totals.functions += m.functions.length;
    addHotspots(hotspots, m);
    return summaryOf(m);
  });
  const all = dir.values.map((v) => v.value);
  const summaries = fitToBudget(all, limits.maxShown, limits.maxBytes);
  const truncatedBy =
    summaries.length < all.length ? [...dir.truncatedBy, 'shown' as const] : [...dir.truncatedBy];
  const report: DirectoryAnalysis = {
    kind: 'directory',
    path: target.path,
    root: real,
    files: dir.counts,
    totals,
    summaries,
    hotspots,
    truncated: truncatedBy.length > 0,
    truncatedBy,
  };
  if (dir.nothing !== undefined) report.nothing = dir.nothing;
  if (report.truncated) {
    const showing = `showing ${summaries.length} of ${all.length} files read (${dir.counts.notRead} not read)`;
    report.hint = `${showing}; ${truncationHint(truncatedBy, 'a subdirectory or one file as `path`')}`;
  }
  return report;
}

/**
 * Measures the file or directory at `target.path`.
 * @throws InvalidInputError naming `path` (outside the allowed roots, missing, binary, too
 *   large, or not code).
 */
export async function analyzePath(target: InspectTarget): Promise<AnalyzeReport> {
  const limits: InspectLimits = { ...DEFAULT_INSPECT_LIMITS, ...target.limits };
  const resolved = await resolveTarget(target.path, target.allowedRoots, target.cwd);
  return resolved.isDirectory
    ? analyzeDirectory(resolved.real, target, limits)
    : analyzeFile(resolved.real, target.path, limits);
}
