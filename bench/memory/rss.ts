// Resident memory of a process, read from /proc (Linux only; undefined elsewhere): the peak,
// and the current split into anonymous memory (heap, stacks) and file pages (code, and the
// memory-mapped database: page cache the kernel can reclaim).
import { readFileSync } from 'node:fs';

export interface Rss {
  /** VmHWM: peak resident set, KiB. */
  peakKiB: number;
  /** RssAnon and RssFile at the time of reading, KiB. */
  anonKiB: number;
  fileKiB: number;
}

/** The resident memory of `pid` (or this process), or undefined when /proc cannot tell. */
export function readRss(pid: number | 'self'): Rss | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string): number => {
      const value = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1];
      if (value === undefined) throw new Error(`no ${field}`);
      return Number(value);
    };
    return { peakKiB: kib('VmHWM'), anonKiB: kib('RssAnon'), fileKiB: kib('RssFile') };
  } catch {
    return undefined;
  }
}
