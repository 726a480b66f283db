// Whether a live job's runner is still there, as any process sees it: its heartbeat (every
// backend; the fallback), its pid when it runs on this machine, and on PostgreSQL the advisory
// lock its runner holds from before its claim to its end, which the database drops when the
// runner's process or connection dies, so its death is seen at once from any machine.
import { hostname } from 'node:os';

import type { Locks } from '../../store/index.js';
import type { JobRow } from './job-rows.js';

/** The name of the run lock a job's runner holds while the job runs. */
export function jobLockName(jobId: string): string {
  return `code-job:${jobId}`;
}

/** This machine's name in job rows: `CAIRN_HOST_ID` when set, else the OS host name. */
export function defaultHostId(env: NodeJS.ProcessEnv = process.env): string {
  const named = env['CAIRN_HOST_ID']?.trim();
  return named === undefined || named === '' ? hostname() : named;
}

/** True when `pid` names a live process on this machine (signal 0 probes, sends nothing). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the verdict is taken against. */
export interface Vantage {
  locks: Locks;
  /** This process's machine (`defaultHostId`). */
  host: string;
  now: number;
  staleMs: number;
}

/** Whether the row's pid can be checked here: its runner is on this machine. */
function onThisMachine(row: JobRow, v: Vantage): boolean {
  // SQLite is one machine; a row written before hosts were recorded keeps the old check.
  return v.locks.reach === 'process' || row.host === null || row.host === v.host;
}

/** Why a live job's runner is gone, or null while it may still be running. */
export async function goneReason(row: JobRow, v: Vantage): Promise<string | null> {
  const beat = row.heartbeat_at ?? row.created_at;
  if (v.now - beat > v.staleMs) {
    return `abandoned: no heartbeat for ${Math.round((v.now - beat) / 1000)} s (its process died or hangs)`;
  }
  const pid = row.pid;
  if (pid !== null && pid !== process.pid && onThisMachine(row, v) && !processAlive(pid)) {
    return `abandoned: its process (pid ${pid}) is gone`;
  }
  // A runner that records its host holds the job's lock from before its claim (so a running
  // row always has it) until the job's end; rows without a host were claimed without one.
  if (row.state !== 'running' || row.host === null || v.locks.reach !== 'database') return null;
  if (await v.locks.isHeld(jobLockName(row.id))) return null;
  return `abandoned: its runner (pid ${pid ?? '?'} on ${row.host}) no longer holds the job's lock (its process or its database connection is gone)`;
}
