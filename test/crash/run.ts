// One crash run: seeds a database file, starts the fleet on it, and for each round lets every
// writer work, SIGKILLs a random set of server processes mid-write after a random delay, and
// replaces them; a last round SIGKILLs every process mid-write. The file is then left as the
// crashes left it, for verify.ts. Shared by test/crash and `npm run bench -- crash`.
import { join } from 'node:path';

import { createCore } from '../../src/core/index.js';
import { teamRoom } from '../../src/rooms/index.js';
import { silentLogger, tempDir, type TempDir } from '../helpers.js';
import { createRng } from '../rng.js';
import { startDecider } from './decider.js';
import { CRASH_TEAM, MEMBER_KINDS, type Member, type MemberKind, startMember } from './fleet.js';
import { Ledger, WRITE_KINDS } from './ledger.js';
import {
  gatedWriter,
  memoryWriter,
  noteWriter,
  roomWriter,
  TEAMMATE,
  tasksWriter,
  together,
  type Writer,
} from './writers.js';

export interface CrashConfig {
  rounds: number;
  seed: number;
  /** The random delay before a round's kill, once the round has seen its first acks. */
  killDelayMs: readonly [number, number];
  /** Seeded parent tasks (each takes 20 subtasks from the tasks writer). */
  parents: number;
  /** team_delegate calls in the whole run (each makes a root task: the root rate cap is 30). */
  delegations: number;
  /** delete_path calls waiting for a decision at once. */
  gatedParallel: number;
  /** The chance that a kind whose turn it is not dies in a round anyway. */
  extraKill: number;
}

export interface CrashRun {
  config: CrashConfig;
  db: string;
  ledger: Ledger;
  /** SIGKILLs sent, per process kind (mid-round kills plus the final one). */
  killed: Record<MemberKind, number>;
  /** Processes started, per kind. */
  started: Record<MemberKind, number>;
  ms: number;
  /** The last stderr of each kind, for failure messages. */
  stderr: string;
  dir: TempDir;
}

const counts = (): Record<MemberKind, number> =>
  Object.fromEntries(MEMBER_KINDS.map((k) => [k, 0])) as Record<MemberKind, number>;

/** Two roots and `n` parents under them, and the teammate delegations go to in the room. */
async function seed(db: string, n: number): Promise<string[]> {
  const core = await createCore({ dbPath: db, logger: silentLogger, embedder: null });
  try {
    const roots = [
      await core.board.createTask({ title: 'crash root 0' }),
      await core.board.createTask({ title: 'crash root 1' }),
    ];
    const parents: string[] = [];
    for (let i = 0; i < n; i++) {
      const root = roots[i % 2]?.id ?? '';
      parents.push((await core.board.createTask({ title: `parent ${i}`, parentTaskId: root })).id);
    }
    await core.rooms.join(teamRoom(CRASH_TEAM), TEAMMATE);
    return parents;
  } finally {
    await core.close();
  }
}

/**
 * This round's victims: the kinds whose turn it is (in turn, so that in a run of any length
 * every kind dies mid-run), and each other kind with the chance `extraKill`.
 */
function victims(round: number, config: CrashConfig, rng: () => number): MemberKind[] {
  const cycle = Math.min(config.rounds, MEMBER_KINDS.length);
  return MEMBER_KINDS.filter((_, i) => i % cycle === round % cycle || rng() < config.extraKill);
}

/** CAIRN_CRASH_TRACE=1 prints each round's progress to stderr. */
const trace = (line: string): void => {
  if (process.env['CAIRN_CRASH_TRACE'] === '1') process.stderr.write(`[crash] ${line}\n`);
};

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until every kind of write has been acknowledged at least once, or `ms` passed. */
async function everyKindAcked(ledger: Ledger, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (WRITE_KINDS.some((k) => ledger.acked(k).length === 0) && Date.now() < deadline)
    await pause(10);
}

/** Waits until `n` more writes are acknowledged than `from`, or `ms` passed. */
async function acksAfter(ledger: Ledger, from: number, n: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (ledger.acked().length < from + n && Date.now() < deadline) await pause(10);
}

interface Fleet {
  readonly options: { db: string; home: string };
  /** The member of each kind writers use now. */
  readonly members: Map<MemberKind, Member>;
  /** Every member ever started (the final kill reaches spares too). */
  readonly all: Member[];
  readonly killed: Record<MemberKind, number>;
  readonly started: Record<MemberKind, number>;
}

async function spawnMember(fleet: Fleet, kind: MemberKind): Promise<Member> {
  const m = await startMember(kind, fleet.options);
  fleet.all.push(m);
  fleet.started[kind] += 1;
  return m;
}

async function killMember(fleet: Fleet, m: Member | undefined): Promise<void> {
  if (m === undefined || !m.alive()) return;
  await m.kill();
  fleet.killed[m.kind] += 1;
}

/**
 * Kills `m` mid-write: at a random point (0–10 ms in) of one of its calls in flight, trying
 * for at most 2 s, so the signal lands inside the handling of a write rather than between two.
 */
async function killMidWrite(fleet: Fleet, m: Member | undefined, rng: () => number): Promise<void> {
  const deadline = Date.now() + 2000;
  while (m !== undefined && Date.now() < deadline) {
    if (m.inflight === 0) {
      await pause(0);
      continue;
    }
    await pause(rng() * 10);
    if (m.inflight > 0) break;
  }
  await killMember(fleet, m);
}

interface Play {
  fleet: Fleet;
  ledger: Ledger;
  writers: Record<MemberKind, Writer>;
  config: CrashConfig;
  rng: () => number;
}

/**
 * One round: everyone writes; the victims' successors start meanwhile (so a kill is not
 * followed by a long restart); the victims are SIGKILLed mid-write after a random delay;
 * survivors and successors write a little longer on the file the dead left; the writers stop.
 * The last round (r = rounds) kills every process and starts none.
 */
async function playRound(p: Play, r: number): Promise<void> {
  const { fleet, ledger, writers, config, rng } = p;
  const last = r === config.rounds;
  let stopped = false;
  const round = { stopped: () => stopped };
  const runs = [...fleet.members.values()].map((m) => writers[m.kind](m, round));
  try {
    const dead = last ? MEMBER_KINDS : victims(r, config, rng);
    const spares = Promise.all(last ? [] : dead.map((k) => spawnMember(fleet, k)));
    // The first kill waits for every write path to have worked once, so each gets checked.
    if (r === 0) await everyKindAcked(ledger, 30_000);
    else await acksAfter(ledger, ledger.acked().length, MEMBER_KINDS.length, 20_000);
    const successors = await spares;
    const [lo, hi] = config.killDelayMs;
    await pause(lo + rng() * (hi - lo));
    await Promise.all(dead.map((k) => killMidWrite(fleet, fleet.members.get(k), rng)));
    for (const m of successors) {
      fleet.members.set(m.kind, m);
      runs.push(writers[m.kind](m, round));
    }
    if (!last) await pause(100 + rng() * 200);
    trace(`round ${r}: killed ${dead.join(', ')}; ${ledger.acked().length} acknowledged`);
  } finally {
    stopped = true;
    await Promise.all(runs);
  }
}

/** Runs the rounds; the caller verifies `db` and removes `dir`. */
export async function runCrash(config: CrashConfig): Promise<CrashRun> {
  const startedAt = Date.now();
  const dir = tempDir('cairn-crash-');
  const db = join(dir.path, 'cairn.db');
  const ledger = new Ledger();
  const fleet: Fleet = {
    options: { db, home: join(dir.path, 'home') },
    members: new Map(),
    all: [],
    killed: counts(),
    started: counts(),
  };
  const decider = startDecider(ledger, () => fleet.members.get('serve'));
  let stderr = '';
  let finished = false;
  try {
    const writers: Record<MemberKind, Writer> = {
      tasks: tasksWriter(ledger, await seed(db, config.parents)),
      memory: memoryWriter(ledger, 'stdio'),
      teamchat: roomWriter(ledger, config.delegations),
      tools: together(noteWriter(ledger), gatedWriter(ledger, config.gatedParallel)),
      serve: memoryWriter(ledger, 'http'),
    };
    for (const m of await Promise.all(MEMBER_KINDS.map((k) => spawnMember(fleet, k))))
      fleet.members.set(m.kind, m);
    trace(`fleet started after ${Date.now() - startedAt} ms`);
    const play: Play = { fleet, ledger, writers, config, rng: createRng(config.seed) };
    for (let r = 0; r <= config.rounds; r++) await playRound(play, r);
    finished = true;
  } finally {
    await decider.stop();
    stderr = [...fleet.members.values()].map((m) => `--- ${m.kind}\n${m.stderr()}`).join('\n');
    await Promise.all(fleet.all.map((m) => killMember(fleet, m).catch(() => undefined)));
    if (!finished) dir.cleanup();
  }
  const ms = Date.now() - startedAt;
  return { config, db, ledger, killed: fleet.killed, started: fleet.started, ms, stderr, dir };
}
