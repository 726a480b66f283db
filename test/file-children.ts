// Child processes a test file left running. With per-file isolation a file's worker exited after
// the file, closing the pipes of the servers it spawned (stdio servers end on end of input); now
// files share one worker, so a server a file forgot keeps running, polling and holding database
// connections through every later file. Linux only (reads /proc); elsewhere it finds nothing.
import { readdirSync, readFileSync } from 'node:fs';

interface Child {
  pid: number;
  command: string;
}

/** The live child processes of this process (zombies excluded). */
export function childProcesses(): Child[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children: Child[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      children.push({ pid: Number(entry), command });
    } catch {
      // The process ended while being read.
    }
  }
  return children;
}

/**
 * Ends children that outlived their test file: those not in `before`, still alive after a
 * grace period (bounded: `graceMs`), are killed. Returns what was killed.
 */
export async function endLeftoverChildren(before: Set<number>, graceMs = 2_000): Promise<Child[]> {
  const deadline = Date.now() + graceMs;
  let left = childProcesses().filter((c) => !before.has(c.pid));
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = childProcesses().filter((c) => !before.has(c.pid));
  }
  for (const child of left) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  return left;
}
