// The backplane bench: messages/s through MCP send_message and through IRC, and the delay from
// send_message to 10 IRC clients receiving the envelope (p50/p99). One process, a fresh
// database, the gateway on a random loopback port. Writes bench/results/backplane.json and
// the `backplane` section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import pino from 'pino';

import { type Core, createCore } from '../../src/core/index.js';
import { createIrcGateway } from '../../src/irc/index.js';
import { createBackplaneServer } from '../../src/mcp/index.js';
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { type BenchIrcClient, ircLogin } from './irc-client.js';
import { measureDelay, measureIrcSend, measureMcpSend } from './measure.js';
import { type BackplaneReport, renderBackplane } from './render.js';

const CONFIG = {
  mcpClients: 4,
  mcpWindowMs: 3000,
  mcpMaxEach: 20_000,
  ircConnections: 4,
  ircLinesEach: 1000,
  ircWindowMs: 15_000,
  delayClients: 10,
  delaySends: 100,
  delayTimeoutMs: 2000,
} as const;

const log = (line: string): void => void process.stderr.write(`[bench:backplane] ${line}\n`);

async function linkedClient(server: Server): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cairn-bench-backplane', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

async function ircClients(
  core: Core,
  port: number,
  prefix: string,
  count: number,
  channel: string,
): Promise<BenchIrcClient[]> {
  const out: BenchIrcClient[] = [];
  for (let i = 0; i < count; i++) {
    const creds = await core.backplane.register({ kind: 'operator' }, { nick: `${prefix}${i}` });
    out.push(await ircLogin(port, creds.nick, creds.password, channel));
  }
  return out;
}

/** The three measurements, on an open core and a listening gateway. */
async function measureAll(
  core: Core,
  port: number,
  mcp: Client[],
  irc: BenchIrcClient[],
): Promise<Omit<BackplaneReport, 'bench' | 'machine' | 'config'>> {
  for (let i = 0; i < CONFIG.mcpClients; i++) {
    mcp.push(await linkedClient(createBackplaneServer(core, {})));
  }
  log(`MCP send_message, ${CONFIG.mcpClients} clients for ${CONFIG.mcpWindowMs} ms…`);
  const mcpRate = await measureMcpSend(mcp, '#bench-mcp', {
    ms: CONFIG.mcpWindowMs,
    maxEach: CONFIG.mcpMaxEach,
  });
  log(`  ${mcpRate.messagesPerSecond} messages/s`);

  irc.push(...(await ircClients(core, port, 'w', CONFIG.ircConnections, '#bench-irc')));
  log(`IRC PRIVMSG, ${CONFIG.ircConnections} × ${CONFIG.ircLinesEach} lines…`);
  const ircRate = await measureIrcSend(core, irc, '#bench-irc', {
    each: CONFIG.ircLinesEach,
    ms: CONFIG.ircWindowMs,
  });
  log(`  ${ircRate.messagesPerSecond} messages/s (${ircRate.failed} missing)`);

  const readers = await ircClients(core, port, 'r', CONFIG.delayClients, '#bench-lat');
  irc.push(...readers);
  log(`delay send_message → ${CONFIG.delayClients} IRC clients, ${CONFIG.delaySends} sends…`);
  const delay = await measureDelay(mcp[0]!, readers, '#bench-lat', {
    sends: CONFIG.delaySends,
    timeoutMs: CONFIG.delayTimeoutMs,
  });
  log(`  p50 ${delay.p50Ms} ms, p99 ${delay.p99Ms} ms, ${delay.timeouts} timeouts`);
  return { mcp: mcpRate, irc: ircRate, delay };
}

/** Runs the backplane bench end to end. Never fails on a slow figure; it reports it. */
export async function runBackplaneBench(): Promise<void> {
  const machine = machineInfo();
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-backplane-'));
  const core = await createCore({
    dbPath: join(home, 'backplane.db'),
    logger: pino({ level: 'silent' }),
    embedder: null,
  });
  // Flood control lifted: the bench measures the gateway, not the per-client pacing.
  const flood = { burst: 1_000_000, perSecond: 1_000_000, maxBacklog: 1_000_000 };
  const gateway = createIrcGateway(core, { port: 0, flood });
  const mcp: Client[] = [];
  const irc: BenchIrcClient[] = [];
  try {
    const { port } = await gateway.listen();
    const figures = await measureAll(core, port, mcp, irc);
    const report: BackplaneReport = {
      bench: 'backplane',
      machine,
      config: { ...CONFIG },
      ...figures,
    };
    const markdown = renderBackplane(report);
    const path = writeResult('backplane', report);
    await writeDocSection('backplane', markdown);
    process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
  } finally {
    for (const c of irc) c.close();
    await Promise.all(mcp.map((c) => c.close()));
    await gateway.close();
    await core.close();
    rmSync(home, { recursive: true, force: true });
  }
}
