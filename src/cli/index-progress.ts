// What `cairn index` shows while a job runs: a progress bar redrawn in place on a terminal, plain
// lines otherwise (a phase change, or every few seconds), always on stderr; and the summary.
import type { JobStatus } from '../code/index.js';

const BAR = 24;
const LINE_EVERY_MS = 2000;

const n = (x: number): string => x.toLocaleString('en-US');

function bar(progress: number | null): string {
  if (progress === null) return `[${'.'.repeat(BAR)}]  ..%`;
  const full = Math.round((progress / 100) * BAR);
  return `[${'#'.repeat(full)}${'-'.repeat(BAR - full)}] ${String(progress).padStart(3)}%`;
}

/** One line of progress: bar, files, lines, rate, phase. */
export function progressLine(s: JobStatus): string {
  const files =
    s.phase === 'walking'
      ? `${n(s.files.total)} files found`
      : `${n(s.files.seen)}/${n(s.files.total)} files`;
  return `${bar(s.progress)}  ${files}  ${n(s.lines)} lines  ${n(s.rate.linesPerSecond)} lines/s  ${s.phase}`;
}

/** The job's outcome in one paragraph. */
export function summary(s: JobStatus): string {
  const skipped = Object.entries(s.skippedByReason)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([reason, count]) => `${reason} ${n(count ?? 0)}`);
  const seconds =
    s.startedAt === null || s.finishedAt === null ? 0 : (s.finishedAt - s.startedAt) / 1000;
  const lines = [
    `${s.collection}: ${s.state} in ${seconds.toFixed(1)} s (${n(s.rate.linesPerSecond)} lines/s)`,
    `  files: ${n(s.files.indexed)} indexed, ${n(s.files.unchanged)} unchanged, ${n(s.files.removed)} removed, ${n(s.files.skipped)} skipped${skipped.length === 0 ? '' : ` (${skipped.join(', ')})`}`,
    `  ${n(s.chunks)} chunks from ${n(s.lines)} lines`,
  ];
  if (s.errorCount > 0) {
    lines.push(`  ${n(s.errorCount)} errors:`);
    for (const e of s.errors.slice(0, 10)) lines.push(`    ${e.path}: ${e.message}`);
  }
  if (s.message !== null) lines.push(`  ${s.message}`);
  return `${lines.join('\n')}\n`;
}

export interface ProgressReporter {
  update(status: JobStatus): void;
  /** Ends the progress display (the bar's line is cleared). */
  end(): void;
}

/** A reporter on `stream`: a bar on a TTY, otherwise a line per phase change or every 2 s. */
export function progressReporter(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
): ProgressReporter {
  const tty = stream.isTTY === true;
  let lastPhase = '';
  let lastLine = 0;
  let drawn = false;
  return {
    update(status) {
      const now = Date.now();
      if (tty) {
        stream.write(`\r\x1b[2K${progressLine(status)}`);
        drawn = true;
        return;
      }
      if (status.phase === lastPhase && now - lastLine < LINE_EVERY_MS) return;
      lastPhase = status.phase;
      lastLine = now;
      stream.write(`${progressLine(status)}\n`);
    },
    end() {
      if (tty && drawn) stream.write('\r\x1b[2K');
    },
  };
}
