// Deciders racing across three `cairn serve` replicas on one PostgreSQL database: 12 agents
// spread over the replicas each wait on delete_path approvals; the moment a call reports its
// approval id, three deciders (allow_once, deny, allow_once) post to it at once, each through
// another replica. Exactly one decision wins per approval (200), the others get the spec'd 409
// `already allowed|denied`; the waiting call is released once, as the winner decided.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { type ReplicaSet, type RestAnswer, startReplicas } from './harness.js';

let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.dispose();
  set = undefined;
});

const AGENTS = 12;
const CALLS_EACH = 3;
const DECISIONS = ['allow_once', 'deny', 'allow_once'] as const;
const APPROVAL_ID = /decide approval (\S+)/;

interface Attempt {
  approvalId: string;
  /** The call's own answer: released to run, or refused as denied. */
  released: 'ran' | 'denied' | `other: ${string}`;
  answers: { decider: number; answer: RestAnswer }[];
}

/** Decider k posts DECISIONS[k] on `id` through replica (agent + k) mod 3, all at once. */
function race(s: ReplicaSet, agent: number, id: string): Promise<Attempt['answers']> {
  return Promise.all(
    DECISIONS.map(async (decision, k) => {
      const replica = s.replicas[(agent + k) % s.replicas.length];
      const path = `/api/approvals/${encodeURIComponent(id)}`;
      const answer = await s.rest(replica?.base ?? '', 'POST', path, {
        decision,
        decidedBy: `decider-${k}`,
      });
      return { decider: k, answer };
    }),
  );
}

const releasedAs = (r: CallToolResult): Attempt['released'] => {
  const first = r.content[0];
  const text = first?.type === 'text' ? first.text : '';
  if (r.isError !== true) return 'ran';
  return text.startsWith('denied:') ? 'denied' : `other: ${text}`;
};

/** One gated call; the race starts on its first progress notification. */
async function gated(s: ReplicaSet, client: Client, agent: number, n: number): Promise<Attempt> {
  let raced: Promise<Attempt['answers']> | undefined;
  let approvalId = '';
  const result = (await client.callTool(
    { name: 'delete_path', arguments: { path: `/tmp/cairn-race-${agent}-${n}` } },
    undefined,
    {
      timeout: REQUEST_TIMEOUT_MS,
      onprogress: (p) => {
        const id = APPROVAL_ID.exec(p.message ?? '')?.[1];
        if (id === undefined || raced !== undefined) return;
        approvalId = id;
        raced = race(s, agent, id);
      },
    },
  )) as CallToolResult;
  const answers = raced === undefined ? [] : await raced;
  return { approvalId, released: releasedAs(result), answers };
}

interface AuditCount {
  approval_id: string;
  decisions: number;
  allowed: number;
  denied: number;
  executed: number;
}

// Three processes starting on a shared 2-core box can take a while: a wide per-test bound.
describe('deciders racing across replicas', { timeout: 240_000 }, () => {
  it('3 deciders per approval over 3 replicas: one decision wins, the call is released once', async () => {
    // Denials would open the caller's circuit after five: not what this test is about.
    const s = (set = await startReplicas({ env: { CAIRN_CIRCUIT_THRESHOLD: '1000000' } }));
    const clients = await Promise.all(
      Array.from({ length: AGENTS }, (_, i) =>
        s.connect(s.replicas[i % s.replicas.length]?.base ?? '', 'tools', `agent-${i}`),
      ),
    );
    const attempts = (
      await Promise.all(
        clients.map(async (client, agent) => {
          const mine: Attempt[] = [];
          for (let n = 0; n < CALLS_EACH; n++) mine.push(await gated(s, client, agent, n));
          return mine;
        }),
      )
    ).flat();
    expect(attempts).toHaveLength(AGENTS * CALLS_EACH);

    const winners = new Map<string, { decider: number; status: string }>();
    for (const a of attempts) {
      expect(a.approvalId, 'every call reported its approval').not.toBe('');
      const won = a.answers.filter((x) => x.answer.status === 200);
      const lost = a.answers.filter((x) => x.answer.status !== 200);
      expect(
        won.map((x) => x.decider),
        `winners of ${a.approvalId}`,
      ).toHaveLength(1);
      const winner = won[0];
      if (winner === undefined) continue;
      const approval = winner.answer.body['approval'] as { status: string; decidedBy: string };
      expect(approval.decidedBy).toBe(`decider-${winner.decider}`);
      // The losers get the spec'd refusal and nothing else.
      for (const x of lost) {
        expect(x.answer.status).toBe(409);
        expect(String(x.answer.body['message'])).toMatch(/is already (allowed|denied)$/);
      }
      // The waiting call was released as the winner decided.
      expect(a.released).toBe(approval.status === 'allowed' ? 'ran' : 'denied');
      winners.set(a.approvalId, { decider: winner.decider, status: approval.status });
    }
    // Both decisions won some races, so the race was real and both outcomes reached the calls.
    const statuses = new Set([...winners.values()].map((w) => w.status));
    expect([...statuses].sort()).toEqual(['allowed', 'denied']);

    // In the database: each approval decided once, as its winner was told, and its call's trail
    // holds one decision, one release (allowed or denied) and one execution only when allowed.
    const rows = await s.withCore((core) =>
      core.store.all<{ id: string; status: string; decided_by: string | null }>(
        'SELECT id, status, decided_by FROM tool_approvals',
      ),
    );
    expect(rows).toHaveLength(AGENTS * CALLS_EACH);
    for (const r of rows) {
      const w = winners.get(r.id);
      expect(r, `approval ${r.id}`).toMatchObject({
        status: w?.status,
        decided_by: `decider-${w?.decider}`,
      });
    }
    const trails = await s.withCore((core) =>
      core.store.all<AuditCount>(
        `SELECT a.id AS approval_id,
           SUM(CASE WHEN l.step = 'decision' THEN 1 ELSE 0 END) AS decisions,
           SUM(CASE WHEN l.step = 'approval' AND l.outcome = 'allowed' THEN 1 ELSE 0 END) AS allowed,
           SUM(CASE WHEN l.step = 'approval' AND l.outcome = 'denied' THEN 1 ELSE 0 END) AS denied,
           SUM(CASE WHEN l.step = 'execution' THEN 1 ELSE 0 END) AS executed
         FROM tool_approvals a JOIN audit_log l ON l.call_id = a.call_id
         GROUP BY a.id`,
      ),
    );
    expect(trails).toHaveLength(AGENTS * CALLS_EACH);
    for (const t of trails) {
      const allowed = winners.get(t.approval_id)?.status === 'allowed' ? 1 : 0;
      expect(
        [t.decisions, t.allowed, t.denied, t.executed].map(Number),
        `trail of ${t.approval_id}`,
      ).toEqual([1, allowed, 1 - allowed, allowed]);
    }
    for (const r of s.replicas) expect(r.stderr()).not.toMatch(/"level":(50|60)/);
  });
});
