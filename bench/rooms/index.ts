// The rooms bench: posts/s from 8 teamchat stdio processes on one file, long-poll delivery
// latency (same process and from another process), and the broker's overhead per safe call.
// Writes bench/results/rooms.json and the `rooms` section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import pino from 'pino';

import { type Core, createCore } from '../../src/core/index.js';
import { createTeamChatServer } from '../../src/mcp/index.js';
import { type BenchClient, callTool, closeAll, connectMany, connectStdio } from '../lib/connect.js';
import { machineInfo, ROOT, writeDocSection, writeResult } from '../lib/report.js';
import { measureBrokerOverhead, measureLatency, measurePosting } from './measure.js';
import { renderRooms, type RoomsReport } from './render.js';

const CONFIG = {
  processes: 8,
  postWindowMs: 3000,
  postsPerProcessMax: 20_000,
  latencySamples: 60,
  overheadWindowMs: 1500,
  overheadMaxCalls: 50_000,
} as const;

async function linkedClient(server: Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cairn-bench-rooms', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

async function topSeq(core: Core, roomId: string): Promise<number> {
  const row = await core.store.get<{ top: number | null }>(
    'SELECT MAX(seq) AS top FROM room_posts WHERE room_id = ?',
    [roomId],
  );
  return row?.top ?? 0;
}

const log = (line: string): void => void process.stderr.write(`[bench:rooms] ${line}\n`);

const teamchatBin = (home: string, db: string, args: string[] = []) => ({
  command: process.execPath,
  args: [join(ROOT, 'bin', 'cairn-mcp-teamchat.js'), '--db', db, ...args],
  env: { CAIRN_HOME: home, CAIRN_LOG_LEVEL: 'warn', CAIRN_EMBEDDINGS: 'none' },
  cwd: ROOT,
});

/** Runs the rooms bench end to end. Never fails on a slow figure; it reports it. */
export async function runRoomsBench(): Promise<void> {
  const machine = machineInfo();
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-rooms-'));
  const db = join(home, 'rooms.db');
  const core = await createCore({ dbPath: db, logger: pino({ level: 'silent' }), embedder: null });
  const spawned: BenchClient[] = [];
  try {
    log(`${CONFIG.processes} posting processes for ${CONFIG.postWindowMs} ms…`);
    spawned.push(
      ...(await connectMany(CONFIG.processes, () => connectStdio(teamchatBin(home, db)))),
    );
    const posting = await measurePosting(
      core,
      spawned.map((c) => c.client),
      { ms: CONFIG.postWindowMs, maxEach: CONFIG.postsPerProcessMax },
    );
    log(`  ${posting.postsPerSecond} posts/s, gap-free: ${posting.gapFree}`);

    const subscriber = await linkedClient(
      createTeamChatServer(core, { roomTeamId: 'lat', postAuthorAgentId: 'listener' }),
    );
    const local = await linkedClient(
      createTeamChatServer(core, { roomTeamId: 'lat', postAuthorAgentId: 'near' }),
    );
    log('long-poll latency, same process…');
    const sameProcess = await measureLatency(
      subscriber,
      async (i) => void (await callTool(local, 'team_chat_post', { text: `near ${i}` })),
      CONFIG.latencySamples,
      0,
    );
    log(`  p50 ${sameProcess.p50Ms} ms, p99 ${sameProcess.p99Ms} ms`);
    log('long-poll latency, post from another process…');
    const remote = await connectStdio(
      teamchatBin(home, db, ['--room-team', 'lat', '--author', 'far']),
    );
    spawned.push(remote);
    const crossProcess = await measureLatency(
      subscriber,
      async (i) => void (await callTool(remote.client, 'team_chat_post', { text: `far ${i}` })),
      CONFIG.latencySamples,
      await topSeq(core, 'team:lat'),
    );
    log(`  p50 ${crossProcess.p50Ms} ms, p99 ${crossProcess.p99Ms} ms`);
    await Promise.all([subscriber.close(), local.close()]);

    log('broker overhead (echo)…');
    const overhead = await measureBrokerOverhead(core, {
      ms: CONFIG.overheadWindowMs,
      maxCalls: CONFIG.overheadMaxCalls,
    });
    log(`  direct ${overhead.directUs} µs, broker ${overhead.brokerUs} µs (${overhead.ratio}×)`);

    const report: RoomsReport = {
      bench: 'rooms',
      machine,
      config: { ...CONFIG },
      posting,
      latency: { sameProcess, crossProcess },
      overhead,
    };
    const markdown = renderRooms(report);
    const path = writeResult('rooms', report);
    await writeDocSection('rooms', markdown);
    process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
  } finally {
    await closeAll(spawned);
    await core.close();
    rmSync(home, { recursive: true, force: true });
  }
}
