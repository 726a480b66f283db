// The context server over stdio: the real bin (cairn-mcp-context) and `cairn mcp context`
// spawned as child processes with CAIRN_CODE_ROOTS naming a project built in the test, driven
// by an SDK client (every tool, a refusal) and by hand (stdout carries only JSON-RPC lines,
// even while the grammars load).
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { FileAnalysis, RuleInfo, ValidateReport } from '../../src/code/index.js';
import { connectStdio, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { callerOf, expectBothTools } from '../context/entity-fixtures.js';
import {
  callContext,
  CONTEXT_TOOLS,
  HYGIENE,
  indexThenSearch,
  makeProject,
  memoryRoundTrip,
  type Project,
} from '../context/fixtures.js';
import { expectSessionRoundTrip, sessionRoundTrip } from '../context/session-round-trip.js';
import {
  backendEnv,
  backendFor,
  callInvalid,
  ROOT,
  tempDir,
  type TempDir,
  toolNames,
} from '../helpers.js';
import { type RawProcess, spawnRaw } from '../memory/spawn.js';

const BIN = join(ROOT, 'bin/cairn-mcp-context.js');
const CLI = join(ROOT, 'bin/cairn.js');

describe('context server over stdio', () => {
  let dir: TempDir;
  let project: Project;
  let env: Record<string, string>;
  const closers: (() => Promise<unknown>)[] = [];
  const raws: RawProcess[] = [];

  let dropDb: () => Promise<void>;

  beforeEach(async () => {
    dir = tempDir('cairn-context-stdio-');
    project = makeProject();
    const db = join(dir.path, 'cairn.db');
    dropDb = await backendFor(db);
    env = {
      CAIRN_HOME: join(dir.path, 'home'),
      CAIRN_LOG_LEVEL: 'info',
      CAIRN_EMBEDDINGS: 'none',
      CAIRN_CODE_ROOTS: project.root,
      ...backendEnv(db),
    };
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const r of raws.splice(0)) r.kill();
    await dropDb();
    project.dir.cleanup();
    dir.cleanup();
  });

  const start = async () => {
    const p = await connectStdio({
      bin: BIN,
      what: 'context',
      clientName: 'cairn-context-stdio',
      db: join(dir.path, 'cairn.db'),
      env,
    });
    closers.push(() => p.client.close());
    return p;
  };

  it('serves cairn-context: validate_code, analyze_code, list_rules and a refusal', async () => {
    const { client } = await start();
    expect(client.getServerVersion()?.name).toBe('cairn-context');
    expect(await toolNames(client)).toEqual(CONTEXT_TOOLS);
    const v = await callContext<ValidateReport>(client, 'validate_code', {
      path: project.root,
      rules: HYGIENE,
    });
    expect(v.data).toMatchObject({ scope: 'project', counts: { findings: 4 } });
    expect(v.text).toContain('src/load.ts:2:6 info todo-comment: ');
    const a = await callContext<FileAnalysis>(client, 'analyze_code', {
      path: join(project.root, 'src/pick.ts'),
    });
    expect(a.data.file.functions.map((f) => f.name)).toEqual(['pick', 'id']);
    const r = await callContext<{ rules: RuleInfo[] }>(client, 'list_rules', {});
    expect(r.data.rules.length).toBeGreaterThanOrEqual(13);
    // CAIRN_CODE_ROOTS is the only allowed root: the temp folder next to it is outside.
    expect(await callInvalid(client, 'validate_code', { path: dir.path })).toMatch(
      /^invalid args: path: .* is outside the allowed roots/,
    );
  }, 120_000);

  it('search_code finds what index_repo indexed; model_id discovered from the environment', async () => {
    env = { ...env, USER: 'ann', CAIRN_MODEL_ID: 'stdio-model' };
    const { client } = await start();
    const r = await indexThenSearch(client, project.root, 'load');
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toMatchObject({
      status: 'ok',
      results: [{ path: 'src/load.ts', symbol: 'load', language: 'typescript' }],
    });
    expect(r._meta?.['cairn/provenance']).toMatchObject({
      model_id: 'stdio-model',
      operator_id: 'ann',
      agent_program: 'cairn-context-stdio',
    });
  }, 120_000);

  it('the project and entity tools: every resource round trip, and a cycle refused', async () => {
    env = { ...env, USER: 'ann', CAIRN_MODEL_ID: 'stdio-model' };
    const { client } = await start();
    const call = callerOf(client, { session_id: 'stdio-session' });
    await expectBothTools(call);
  }, 120_000);

  it('the memory family and search_memory: stored scrubbed, then read back every way', async () => {
    env = { ...env, USER: 'ann', CAIRN_MODEL_ID: 'stdio-model' };
    const { client } = await start();
    const r = await memoryRoundTrip(client, { session_id: 'stdio-session' });
    expect(r.content).not.toContain('ghp_Zx9Yw8Vu7TZx9Yw8Vu7TZx9Yw8Vu7Tqrstuv');
    expect(r).toMatchObject({ got: [r.id], missing: ['nope'], listed: [r.id], anchor: r.id });
    expect(r.found).toEqual([r.id]);
    expect(r.injected).toContain(r.id);
    expect(r.provenance).toMatchObject({ session_id: 'stdio-session', model_id: 'stdio-model' });
  }, 120_000);

  it('the session and agent families, summarize_session included', async () => {
    env = { ...env, USER: 'ann', CAIRN_MODEL_ID: 'stdio-model' };
    const { client } = await start();
    const r = await sessionRoundTrip(client, { session_id: 'stdio-session' });
    expectSessionRoundTrip(r);
    expect(r.provenance).toMatchObject({ model_id: 'stdio-model' });
  }, 120_000);

  it('cairn mcp context is the same server', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'context', '--db', join(dir.path, 'cairn.db')],
      env,
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cairn-context-cli', version: '0.0.0' });
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    closers.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('cairn-context');
    expect(await toolNames(client)).toEqual(CONTEXT_TOOLS);
  }, 120_000);

  it(
    'writes only JSON-RPC to stdout, grammar loading included',
    async () => {
      const raw = spawnRaw(join(dir.path, 'cairn.db'), env, BIN);
      raws.push(raw);
      const init = await raw.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      });
      expect(init.result?.['serverInfo']).toMatchObject({ name: 'cairn-context' });
      raw.notify('notifications/initialized');
      const called = await raw.request('tools/call', {
        name: 'analyze_code',
        arguments: { path: project.root },
      });
      expect(called.result?.['isError']).toBeUndefined();
      for (const line of raw.lines()) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(await raw.end()).toBe(0);
    },
    REQUEST_TIMEOUT_MS,
  );
});
