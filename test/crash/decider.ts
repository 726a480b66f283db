// The human side of the crash run: a loop that lists pending approvals over the serve
// process's REST API and approves each one (allow_once), recording every decision it sends.
// When serve is down it waits for the next one; it never throws.
import type { Member } from './fleet.js';
import type { Ledger } from './ledger.js';
import { DECIDER } from './writers.js';

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Listed {
  approvals?: Array<{ id?: unknown }>;
}

async function pendingIds(base: string): Promise<string[]> {
  const res = await fetch(`${base}/api/approvals?status=pending&limit=50`, {
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) return [];
  const body = (await res.json()) as Listed;
  return (body.approvals ?? []).flatMap((a) => (typeof a.id === 'string' ? [a.id] : []));
}

/** Approves one approval; true when the server answered (either way), false on no answer. */
async function approve(ledger: Ledger, base: string, id: string): Promise<boolean> {
  const w = ledger.start('decision', id, { approval: id });
  try {
    const res = await fetch(`${base}/api/approvals/${encodeURIComponent(id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'allow_once', decidedBy: DECIDER }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.text();
    if (res.ok) w.acked = { status: res.status };
    return true;
  } catch {
    return false;
  }
}

export interface Decider {
  /** Stops the loop after the request in flight. */
  stop(): Promise<void>;
}

/** Starts deciding; `serve` names the current serve member (restarted ones included). */
export function startDecider(ledger: Ledger, serve: () => Member | undefined): Decider {
  let stopped = false;
  /** Approvals the server answered a decision for: never sent again (a refusal stays one). */
  const answered = new Set<string>();
  const loop = async (): Promise<void> => {
    while (!stopped) {
      const m = serve();
      if (m?.base === undefined || !m.alive()) {
        await pause(20);
        continue;
      }
      try {
        for (const id of await pendingIds(m.base)) {
          if (stopped || answered.has(id)) continue;
          if (await approve(ledger, m.base, id)) answered.add(id);
        }
      } catch {
        // serve died mid-list: the next turn waits for its successor.
      }
      await pause(20);
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}
