// The extractor eval (`npm run eval -- extract`): runs the deterministic triple extractor over
// the labelled sentences of bench/extract/ (sample.json and recall-tune.json, development sets;
// heldout.json and recall-check.json, never used to change the extractor) and reports
// precision and recall per predicate and overall, strict and partial. Writes
// bench/results/extract-eval.json and its benchmarks.md section.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PREDICATES, sentenceTriples } from '../../../src/graph/extract/index.js';
import { machineInfo, mdTable, ROOT, writeEvalSection, writeResult } from '../../lib/report.js';
import { type Match, type Scores, score, type Triple } from './score.js';

/** Development sets (used while writing the extractor) first, then those never used so. */
const SETS = ['sample', 'recall-tune', 'heldout', 'recall-check'] as const;
const MODES: readonly Match[] = ['strict', 'partial'];

interface LabelledCase {
  text: string;
  want: Triple[];
}

function loadSet(name: string): LabelledCase[] {
  const raw = JSON.parse(readFileSync(join(ROOT, 'bench', 'extract', `${name}.json`), 'utf8')) as {
    cases: [string, Triple[]][];
  };
  return raw.cases.map(([text, want]) => ({ text, want }));
}

function runSet(cases: readonly LabelledCase[]) {
  const pairs = cases.map(({ text, want }) => ({
    got: sentenceTriples(text).map((t): Triple => [t.subject, t.predicate, t.object]),
    want,
  }));
  const sentences = cases.length;
  const negatives = cases.filter((c) => c.want.length === 0).length;
  return {
    sentences,
    negatives,
    strict: score(pairs, 'strict'),
    partial: score(pairs, 'partial'),
  };
}

const pct = (x: number): string => x.toFixed(3);
const cells = (s: Scores): string[] => [
  `${s.truePositives}/${s.extracted}`,
  s.extracted === 0 ? '–' : pct(s.precision),
  `${s.truePositives}/${s.expected}`,
  s.expected === 0 ? '–' : pct(s.recall),
];

function render(results: Record<string, ReturnType<typeof runSet>>, date: string): string {
  const parts = [
    '## Fact extraction (deterministic)',
    `Command: \`npm run eval -- extract\` (${date}). The vault's triple extractor ` +
      '(src/graph/extract/) over hand-labelled sentences: `bench/extract/sample.json` was ' +
      'labelled before the extractor was written, then used while writing it (an in-sample, ' +
      'optimistic number); `bench/extract/heldout.json` was written after the first run and ' +
      'never used to change the extractor (the honest number). For the recall work two more ' +
      'sets were labelled together, before the extractor ran on them: ' +
      '`bench/extract/recall-tune.json` was then used to add forms (in-sample, like sample); ' +
      '`bench/extract/recall-check.json` (the same families of forms in other words) was not ' +
      'run until the end, but the person who added the forms wrote it and knew its words, so ' +
      'its score says those words are covered, not that the forms generalise: heldout is ' +
      'still the only blind number. The optional model provider (CAIRN_VAULT_EXTRACTION) is ' +
      'not measured here: no model is reachable from the machine that ran this, and its tests ' +
      'use a stand-in server that checks validation and fallback, not extraction quality. ' +
      'Strict: both phrases equal ' +
      'after normalisation; partial: one phrase’s words contain the other’s.',
  ];
  for (const set of SETS) {
    const r = results[set];
    if (r === undefined) continue;
    for (const mode of MODES) {
      const s = r[mode];
      const rows = [
        ['overall', ...cells(s.overall)],
        ...PREDICATES.map((p) => [p, ...cells(s.byPredicate[p])]),
      ];
      parts.push(
        `### ${set} (${r.sentences} sentences, ${r.negatives} with no fact), ${mode}`,
        mdTable(
          ['predicate', 'correct/extracted', 'precision', 'correct/expected', 'recall'],
          rows,
        ),
      );
    }
  }
  return parts.join('\n\n');
}

/** Runs both sets, writes the result file and the doc section (unless `--quick`). */
export async function runExtractEval(flags: readonly string[]): Promise<void> {
  const unknown = flags.filter((f) => f !== '--quick');
  if (unknown.length > 0) throw new Error(`eval extract: unknown option ${unknown.join(' ')}`);
  const results = Object.fromEntries(SETS.map((s) => [s, runSet(loadSet(s))]));
  const machine = machineInfo();
  const path = writeResult('extract-eval', { machine, results });
  process.stderr.write(`[eval:extract] wrote ${path}\n`);
  for (const set of SETS) {
    const o = results[set]?.strict.overall;
    if (o !== undefined) {
      process.stderr.write(
        `[eval:extract] ${set} strict P=${pct(o.precision)} R=${pct(o.recall)}\n`,
      );
    }
  }
  if (!flags.includes('--quick')) {
    await writeEvalSection('extract', render(results, machine.date.slice(0, 10)));
  }
}
