// The crash bench: the crash-safety test (test/crash) at a larger size, with its figures
// (writes attempted, acknowledged, kept, per kind; processes started and SIGKILLed). Writes
// bench/results/crash.json and the `crash` section of docs/benchmarks.md, then fails if any
// acknowledged write was lost or anything was half-written.
import { type CrashConfig, runCrash } from '../../test/crash/run.js';
import { verifyCrash } from '../../test/crash/verify.js';
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { type CrashReport, renderCrash } from './render.js';

const CONFIG: CrashConfig = {
  rounds: 20,
  seed: 11,
  killDelayMs: [50, 800],
  parents: 120,
  // Each delegation makes a root task; the root rate cap allows 30 per 5 min, 2 are seeded.
  delegations: 25,
  gatedParallel: 2,
  extraKill: 0.3,
};

const log = (line: string): void => void process.stderr.write(`[bench:crash] ${line}\n`);

/** Runs the crash bench end to end. */
export async function runCrashBench(): Promise<void> {
  const machine = machineInfo();
  log(`${CONFIG.rounds} kill rounds of 5 server processes…`);
  const run = await runCrash(CONFIG);
  try {
    const verdict = verifyCrash(run.db, run.ledger);
    const report: CrashReport = {
      bench: 'crash',
      machine,
      config: CONFIG,
      seconds: run.ms / 1000,
      killed: run.killed,
      started: run.started,
      figures: verdict.figures,
      integrity: verdict.integrity,
      foreignKeyViolations: verdict.foreignKeyViolations,
      problems: verdict.problems,
    };
    const markdown = renderCrash(report);
    const path = writeResult('crash', report);
    await writeDocSection('crash', markdown);
    process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
    if (verdict.problems.length > 0)
      throw new Error(`crash bench found ${verdict.problems.length} problems (see above)`);
  } finally {
    run.dir.cleanup();
  }
}
