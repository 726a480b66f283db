// The hostile-input sweep's harness (sweep.test.ts): cores and clients closed after each test,
// one call classified without throwing, the problems an answer may show (every answer to a
// listed tool is a result; invalid arguments are the tool error `invalid args` naming the field,
// each problem once), the seeded round-robin over every (binding, tool), and the health check.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';
import { expect } from 'vitest';

import type { Core, CoreOptions } from '../../src/core/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { linkedClient, tempCore } from '../helpers.js';
import { createRng } from '../rng.js';
import { type GenerateOptions, generateArgs, hostileString, type SchemaNode } from './generate.js';

export const SEED = Number(process.env['CAIRN_HOSTILE_SEED'] ?? 0x5eed);
export const ROUNDS = Number(process.env['CAIRN_HOSTILE_ROUNDS'] ?? 40);
export const CALL_TIMEOUT_MS = 5_000;
/** Per server: no new round starts after this (a slow machine runs fewer, never hangs). */
const SERVER_BUDGET_MS = 30_000 * Math.max(1, ROUNDS / 40);
const MIN_ROUNDS = 10;
/**
 * What a leaked trace shows: a V8 frame line (`    at fn (file:1:2)`), a Node internal, a
 * source position. Stricter than a bare `    at `, which a whitespace author id can produce.
 */
const STACK = /^\s*at \S.*(?:\(.*\)|:\d+:\d+)\s*$|node:internal|\.(?:ts|js|mjs|cjs):\d/m;
/**
 * STACK without the bare source position, for results whose job is to name positions in the
 * caller's code (the context server's `src/a.ts:12:3` findings): V8 frames and Node internals
 * still count as leaks there.
 */
const FRAMES = /^\s*at \S.*(?:\(.*\)|:\d+:\d+)\s*$|node:internal/m;
const UNKNOWN_TOOL = /^(?:MCP error -32602: )?unknown tool: /;
const INVALID_ARGS = 'invalid args: ';
const UNKNOWN = '(unknown tool)';

const cleanups: (() => Promise<void>)[] = [];

/** Closes every client and core opened since the last call, newest first (call in afterEach). */
export async function closeOpened(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** What the core logged at warn or above: a swallowed fault shows up here, not to the client. */
let logged: string[] = [];

export async function openCore(options: Omit<CoreOptions, 'logger'> = {}): Promise<Core> {
  logged = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const t = await tempCore({ embedder: null, ...options, logger });
  cleanups.push(t.close);
  return t.core;
}

export async function connect(server: Server): Promise<Client> {
  const client = await linkedClient(server);
  cleanups.push(() => client.close());
  return client;
}

export type Outcome =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'rpc'; code: number; message: string; data: unknown }
  | { kind: 'crash'; message: string }
  | { kind: 'timeout' };

/** One call that always settles: a result, a JSON-RPC error, a crash or a timeout. */
export async function callOnce(client: Client, name: string, args: unknown): Promise<Outcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: 'timeout' });
    }, CALL_TIMEOUT_MS);
  });
  const params = { name, arguments: args as Record<string, unknown> };
  const options = { signal: controller.signal, timeout: CALL_TIMEOUT_MS * 2 };
  const call = client.callTool(params, undefined, options).then(
    (result): Outcome => ({ kind: 'result', result: result as CallToolResult }),
    (err: unknown): Outcome =>
      err instanceof McpError
        ? { kind: 'rpc', code: err.code, message: err.message, data: err.data }
        : { kind: 'crash', message: String(err) },
  );
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every string inside a JSON value (result texts, structuredContent, _meta, error data). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(stringsIn);
}

/** The reason in a tool result's `_meta.denied`, if any. */
const deniedReason = (result: CallToolResult): unknown =>
  (result._meta?.['denied'] as { reason?: unknown } | undefined)?.reason;

/**
 * Why an `invalid args: …` text breaks the rule, or null: each problem names an advertised
 * field (or `(arguments)`), and none is named twice.
 */
export function invalidArgsProblem(text: string, fields: readonly string[]): string | null {
  const problems = text.slice(INVALID_ARGS.length).split('; ');
  if (new Set(problems).size !== problems.length) return `a problem named twice: ${text}`;
  const first = (problems[0] ?? '').split(/[.[:]/, 1)[0] ?? '';
  return first === '(arguments)' || fields.includes(first) ? null : `names no field: ${text}`;
}

/** Why a tool result breaks the rule, or null. */
function resultProblem(
  result: CallToolResult,
  fields: readonly string[],
  positions: boolean,
): string | null {
  const leaks = positions ? FRAMES : STACK;
  const leak = stringsIn(result).find((text) => leaks.test(text));
  if (leak !== undefined) return `stack trace in result: ${leak.slice(0, 300)}`;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  const invalid = result.isError === true && text.startsWith(INVALID_ARGS);
  if (invalid !== (deniedReason(result) === 'invalid_args')) {
    return `invalid args without _meta.denied.reason invalid_args (or the reverse): ${shorten(result)}`;
  }
  return invalid ? invalidArgsProblem(text.slice(0, 2000), fields) : null;
}

/**
 * Why an outcome breaks the rule, or null. `fields` are the tool's advertised properties;
 * `listed` says whether tools/list advertises the tool (only an unlisted one may be -32602).
 */
export function problem(
  outcome: Outcome,
  tool: { fields: readonly string[]; listed: boolean },
  extraCodes: number[],
  positions = false,
): string | null {
  if (outcome.kind === 'timeout') return `no answer within ${CALL_TIMEOUT_MS} ms`;
  if (outcome.kind === 'crash') return `crash: ${outcome.message.slice(0, 300)}`;
  if (outcome.kind === 'result') return resultProblem(outcome.result, tool.fields, positions);
  const shown = `${outcome.code} ${outcome.message.slice(0, 300)}`;
  if ([outcome.message, ...stringsIn(outcome.data)].some((text) => STACK.test(text))) {
    return `stack trace in error: ${shown}`;
  }
  if (extraCodes.includes(outcome.code)) return null;
  const unknownTool = outcome.code === -32602 && UNKNOWN_TOOL.test(outcome.message);
  return unknownTool && !tool.listed ? null : `unexpected error: ${shown}`;
}

/** JSON of `value` with long strings cut, for failure reports. */
export function shorten(value: unknown): string {
  const json = JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'string' && v.length > 60 ? `${v.slice(0, 40)}…(${v.length} chars)` : v,
  );
  return json.length > 400 ? `${json.slice(0, 400)}…` : json;
}

export interface Target {
  label: string;
  client: Client;
}

export interface SweepOptions extends GenerateOptions {
  /** JSON-RPC codes the server's spec adds (the backplane's -32001 Unauthorized). */
  extraCodes?: number[];
  /** Results name source positions by design (`src/a.ts:12`): only frames count as leaks. */
  positions?: boolean;
}

export interface Entry {
  target: Target;
  tool: Tool;
  rng: () => number;
  calls: number;
}

/** FNV-1a, so each (binding, tool) draws from its own stream whatever runs before it. */
const hash = (s: string): number =>
  [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);

export async function entriesOf(targets: Target[]): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (const target of targets) {
    const unknown: Tool = { name: UNKNOWN, inputSchema: { type: 'object' } };
    for (const tool of [...(await target.client.listTools()).tools, unknown]) {
      const rng = createRng(SEED ^ hash(`${target.label}/${tool.name}`));
      entries.push({ target, tool, rng, calls: 0 });
    }
  }
  return entries;
}

/** One generated call; the broken rule with the tool and its arguments, or null. */
export async function step(e: Entry, round: number, o: SweepOptions): Promise<string | null> {
  const name = e.tool.name === UNKNOWN ? `x${hostileString(e.rng).slice(0, 300)}` : e.tool.name;
  const { args, mutations } = generateArgs(e.rng, e.tool.inputSchema as SchemaNode, o);
  // Over the wire every argument is JSON: send what stdio or HTTP would deliver.
  const wire = JSON.parse(JSON.stringify(args)) as unknown;
  const outcome = await callOnce(e.target.client, name, wire);
  e.calls++;
  const fields = Object.keys(e.tool.inputSchema.properties ?? {});
  const listed = e.tool.name !== UNKNOWN;
  const why = problem(outcome, { fields, listed }, o.extraCodes ?? [], o.positions === true);
  if (why === null) return null;
  const how = mutations.length === 0 ? 'plausible' : mutations.join('; ');
  const at = `[${e.target.label}] ${shorten(name)} #${round}`;
  return `${at} (${how}) → ${why}; args ${shorten(wire)}`;
}

/**
 * ROUNDS calls per (binding, tool), plus calls to unknown tool names, round-robin so a time
 * cut spreads evenly. Returns every broken rule (at most 40 shown, then a count and the seed).
 */
export async function sweep(targets: Target[], o: SweepOptions): Promise<string[]> {
  const entries = await entriesOf(targets);
  const failures: string[] = [];
  const deadline = Date.now() + SERVER_BUDGET_MS;
  for (let round = 0; round < ROUNDS && Date.now() < deadline; round++) {
    for (const e of entries) {
      const failure = await step(e, round, o);
      if (failure !== null) failures.push(failure);
    }
  }
  for (const e of entries) {
    if (e.calls < Math.min(MIN_ROUNDS, ROUNDS))
      failures.push(`[${e.target.label}] ${e.tool.name}: only ${e.calls} calls ran`);
  }
  const more = failures.length - 40;
  return [...failures.slice(0, 40), ...(more > 0 ? [`…and ${more} more (seed ${SEED})`] : [])];
}

/**
 * 'ok' when the store survived: SQLite checks its file page by page (PRAGMA integrity_check);
 * PostgreSQL keeps no file of ours to check, so there the database must still answer with every
 * migration recorded once.
 */
async function storeIntact(core: Core): Promise<string> {
  if (core.store.dialect === 'sqlite') {
    const row = await core.store.get<{ integrity_check: string }>('PRAGMA integrity_check');
    return row?.integrity_check ?? 'no answer';
  }
  const row = await core.store.get<{ n: number; versions: number }>(
    'SELECT COUNT(*) AS n, COUNT(DISTINCT version) AS versions FROM schema_migrations',
  );
  const n = Number(row?.n ?? 0);
  return n === MIGRATIONS.length && Number(row?.versions) === n ? 'ok' : `${n} migrations`;
}

/** tools/list answers on every client, the store is intact, and nothing was logged. */
export async function expectHealthy(core: Core, targets: Target[]): Promise<void> {
  for (const t of targets) expect((await t.client.listTools()).tools.length).toBeGreaterThan(0);
  expect(await storeIntact(core)).toBe('ok');
  // The store's own start warnings name the database (on PostgreSQL without pgvector: vector
  // search is exact and slower); every other line is a fault.
  const faults = logged.filter(
    (line) => (JSON.parse(line) as { db?: unknown }).db !== core.store.location,
  );
  expect(faults.map((line) => line.slice(0, 500))).toEqual([]);
}
