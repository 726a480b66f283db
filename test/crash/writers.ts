// The crash run's writers: each drives one server process as fast as it answers, recording
// every write in the ledger before it is sent and its acknowledgement when one arrives. A
// writer stops when its round ends or its process is gone; it never throws.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { call, type Outcome, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import type { Member } from './fleet.js';
import type { Ledger, Write } from './ledger.js';

/** The agent the tasks writer claims for, and the teammate delegations go to. */
export const CLAIMER = 'crash-agent';
export const TEAMMATE = 'helper';
/** Who the decider records as having approved. */
export const DECIDER = 'crash-decider';

export interface Round {
  /** True once the round is over: writers finish the call in flight and return. */
  stopped(): boolean;
}

export type Writer = (member: Member, round: Round) => Promise<void>;

/** Yields so a writer whose calls fail at once cannot starve the event loop. */
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const going = (member: Member, round: Round): boolean => member.alive() && !round.stopped();

/** Counts `promise` as in flight on `member` while it runs (the killer aims at such moments). */
async function inFlight<T>(member: Member, promise: Promise<T>): Promise<T> {
  member.inflight += 1;
  try {
    return await promise;
  } finally {
    member.inflight -= 1;
  }
}

/** Sends one write: acknowledged (with `pick` of its answer) only on a success outcome. */
async function send(
  member: Member,
  w: Write,
  outcome: Promise<Outcome>,
  pick: (data: Record<string, unknown>) => Record<string, unknown>,
): Promise<boolean> {
  const o = await inFlight(member, outcome);
  if (o.kind !== 'ok') return false;
  const fields: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(pick(o.data))) {
    if (typeof v === 'string' || typeof v === 'number') fields[k] = v;
  }
  w.acked = fields;
  return true;
}

/**
 * Subtasks under seeded parents (so the root rate cap never refuses), each commented on and
 * claimed. A parent takes at most `perParent` creates (the child cap is 24).
 */
export function tasksWriter(ledger: Ledger, parents: readonly string[], perParent = 20): Writer {
  let slot = 0;
  return async (member, round) => {
    while (going(member, round)) {
      const parent = parents[Math.floor(slot / perParent)];
      if (parent === undefined) return;
      slot += 1;
      const c = member.client;
      const task = ledger.start('task', ledger.marker('t'), { parent });
      const created = await send(
        member,
        task,
        call(c, 'create_task', { title: task.marker, parentTaskId: parent }),
        (d) => ({ id: d['id'] }),
      );
      const id = task.acked?.['id'];
      if (!created || typeof id !== 'string' || !going(member, round)) continue;
      const note = ledger.start('comment', ledger.marker('c'), { task: id });
      await send(member, note, call(c, 'add_comment', { taskId: id, body: note.marker }), (d) => ({
        id: d['id'],
      }));
      if (!going(member, round)) continue;
      const claim = ledger.start('claim', ledger.marker('k'), { task: id });
      await send(
        member,
        claim,
        call(c, 'claim_task', { taskId: id, assigneeAgentId: CLAIMER }),
        () => ({ ok: 1 }),
      );
    }
  };
}

/** Facts, and every third save the next version of one of the writer's two procedures. */
export function memoryWriter(ledger: Ledger, name: string): Writer {
  let i = 0;
  return async (member, round) => {
    while (going(member, round)) {
      i += 1;
      if (i % 3 === 0) {
        const procedure = `proc-${name}-${i % 2}`;
        const w = ledger.start('procedure', ledger.marker('p'), { name: procedure });
        const args = { procedureName: procedure, content: `step ${w.marker}: run the checks` };
        await send(member, w, call(member.client, 'memory_save', args), (d) => {
          const p = d['procedure'] as Record<string, unknown> | undefined;
          return { id: p?.['id'], version: p?.['version'] };
        });
        continue;
      }
      const w = ledger.start('fact', ledger.marker('f'));
      const args = { title: `fact ${w.marker}`, content: `the crash run saved ${w.marker}` };
      await send(member, w, call(member.client, 'memory_save', args), (d) => {
        const f = d['fact'] as Record<string, unknown> | undefined;
        return { id: f?.['id'] };
      });
    }
  };
}

/** Room posts; every fourth turn, while `delegations` lasts, a team_delegate to the teammate. */
export function roomWriter(ledger: Ledger, delegations: number): Writer {
  let left = delegations;
  let i = 0;
  return async (member, round) => {
    while (going(member, round)) {
      i += 1;
      if (i % 4 === 0 && left > 0) {
        left -= 1;
        const w = ledger.start('delegation', ledger.marker('d'));
        const args = { assignee: TEAMMATE, task: `deleg ${w.marker}` };
        await send(member, w, call(member.client, 'team_delegate', args), (d) => ({
          taskId: d['taskId'],
          outcome: d['outcome'],
        }));
        continue;
      }
      const w = ledger.start('post', ledger.marker('r'));
      await send(
        member,
        w,
        call(member.client, 'team_chat_post', { text: `post ${w.marker}` }),
        (d) => {
          const p = d['posted'] as Record<string, unknown> | undefined;
          return { seq: p?.['seq'], roomId: p?.['roomId'] };
        },
      );
    }
  };
}

/** `note` calls (a safe tool that writes). */
export function noteWriter(ledger: Ledger): Writer {
  return async (member, round) => {
    while (going(member, round)) {
      const w = ledger.start('note', ledger.marker('n'));
      await send(member, w, call(member.client, 'note', { note: w.marker }), (d) => {
        const n = d['note'] as Record<string, unknown> | undefined;
        return { id: n?.['id'] };
      });
    }
  };
}

/**
 * One gated call, waiting for a decision. The checker finds its approval by the marker in the
 * path: progress messages name the approval too, but the SDK client drops one that arrives in
 * the same read as its response (typescript-sdk#2580).
 */
async function gatedCall(client: Client, w: Write): Promise<void> {
  try {
    const result = (await client.callTool(
      { name: 'delete_path', arguments: { path: `/crash/${w.marker}` } },
      undefined,
      { timeout: REQUEST_TIMEOUT_MS },
    )) as CallToolResult;
    if (result.isError !== true) w.acked = { ok: 1 };
  } catch {
    // The process died or the call failed: unacknowledged.
  }
}

/** `parallel` delete_path calls at a time, each waiting for the decider. */
export function gatedWriter(ledger: Ledger, parallel: number): Writer {
  return async (member, round) => {
    const lane = async (): Promise<void> => {
      while (going(member, round)) {
        const w = ledger.start('gated_call', ledger.marker('g'));
        await inFlight(member, gatedCall(member.client, w));
        await pause(1);
      }
    };
    await Promise.all(Array.from({ length: parallel }, lane));
  };
}

/** Runs several writers on one member at once. */
export const together =
  (...writers: Writer[]): Writer =>
  async (member, round) => {
    await Promise.all(writers.map((w) => w(member, round)));
  };
