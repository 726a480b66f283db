// CPU time of child processes, read from /proc (Linux). Used to report server CPU per call,
// which a busy client or a noisy neighbour distorts far less than calls per second.
import { readFileSync } from 'node:fs';

/** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream build. */
const MICROS_PER_TICK = 10_000;

/** utime + stime of one process in µs, or undefined when /proc is unavailable. */
function processCpu(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK;
  } catch {
    return undefined;
  }
}

/** Summed CPU µs of `pids`, or undefined if any could not be read. */
export function cpuMicros(pids: readonly number[]): number | undefined {
  let total = 0;
  for (const pid of pids) {
    const used = processCpu(pid);
    if (used === undefined) return undefined;
    total += used;
  }
  return pids.length === 0 ? undefined : total;
}
