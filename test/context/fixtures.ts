// A small project on disk for the context server's tests (TypeScript and Python files with
// known findings, an excluded dependency folder, a README, a binary), and a core whose code
// roots are that project's folder and whose provenance discovery reads only what the test says.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Core, CoreOptions } from '../../src/core/index.js';
import { tempCore, tempDir, type TempDir } from '../helpers.js';

export const CONTEXT_TOOLS = [
  'analyze_code',
  'analyze_impact',
  'clear_index',
  'compare_branches',
  'entity',
  'get_memories',
  'get_session',
  'index_repo',
  'index_status',
  'inject_context',
  'list_memories',
  'list_repos',
  'list_rules',
  'list_sessions',
  'log_delegation',
  'log_tool_call',
  'memory_timeline',
  'project',
  'search_code',
  'search_memory',
  'start_session',
  'store_memory',
  'summarize_session',
  'validate_code',
];

/** The rules the fixtures' findings come from; exact counts name them, so new rules do not move them. */
export const HYGIENE = ['todo-comment', 'debug-print'];

/** 2 findings: todo-comment (line 2), debug-print (line 3). */
export const LOAD_TS = [
  'export function load(path: string) {',
  '  // TODO: cache the result',
  '  console.log(path);',
  '  return path;',
  '}',
  '',
].join('\n');

/** Cyclomatic 5 (two ifs, a for, an if), then a one-line arrow function. */
export const PICK_TS = [
  'export function pick(a: number, b: number) {',
  '  if (a > b) { if (a > 10) { return a; } }',
  '  for (let i = 0; i < b; i++) { if (i === a) { return i; } }',
  '  return b;',
  '}',
  'export const id = (x: number) => x;',
  '',
].join('\n');

/** 2 findings: debug-print and todo-comment (line 2). */
export const F_PY = ['def f(x):', '    print(x)  # FIXME: remove', '    return x', ''].join('\n');

export interface Project {
  /** Canonical path of the project folder (also the only allowed code root). */
  root: string;
  dir: TempDir;
  write(rel: string, content: string | Buffer): string;
}

/** A fresh project folder: src/load.ts, src/pick.ts, tools/f.py, node_modules, README, a binary. */
export function makeProject(): Project {
  const dir = tempDir('cairn-context-project-');
  const root = realpathSync(dir.path);
  const write = (rel: string, content: string | Buffer): string => {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    return abs;
  };
  write('src/load.ts', LOAD_TS);
  write('src/pick.ts', PICK_TS);
  write('tools/f.py', F_PY);
  write('node_modules/dep/index.ts', LOAD_TS);
  write('README.md', '# TODO: docs\n');
  write('src/blob.ts', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
  return { root, dir, write };
}

/** Provenance discovery that sees only `env` (plus a fixed host, pid and clock, no git). */
export function discoveryOf(env: Record<string, string>, cwd: string): CoreOptions['provenance'] {
  return {
    env,
    cwd,
    hostname: 'test-host',
    pid: 4242,
    clock: () => 1_760_000_000_000,
    git: () => Promise.resolve(undefined),
  };
}

/** A complete environment for discovery: user and model set. */
export const FULL_ENV = { USER: 'ann', CAIRN_MODEL_ID: 'test-model' };

/** A core over a fresh database whose code roots are `project.root`. */
export async function contextCore(
  project: Project,
  env: Record<string, string> = FULL_ENV,
  options: CoreOptions = {},
): Promise<{ core: Core; close(): Promise<void> }> {
  return tempCore({
    embedder: null,
    codeRoots: [project.root],
    provenance: discoveryOf(env, project.root),
    ...options,
  });
}

/** Calls a tool, failing on a tool error; returns its text and structuredContent. */
export async function callContext<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; data: T; meta: Record<string, unknown> | undefined }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError === true) throw new Error(`${name} failed: ${text}`);
  return { text, data: result.structuredContent as T, meta: result._meta };
}

/**
 * index_repo of `root` as collection `demo`, then search_code for `query`, both with `meta` as
 * the request `_meta` (the transport suites' check that search works end to end).
 */
export async function indexThenSearch(
  client: Client,
  root: string,
  query: string,
  meta: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const indexed = (await client.callTool({
    name: 'index_repo',
    arguments: { path: root, collection: 'demo' },
    _meta: meta,
  })) as CallToolResult;
  if (indexed.isError === true) throw new Error(`index_repo failed: ${JSON.stringify(indexed)}`);
  return (await client.callTool({
    name: 'search_code',
    arguments: { query },
    _meta: meta,
  })) as CallToolResult;
}

/** What memoryRoundTrip saw, for the transport suites to check. */
export interface MemoryRoundTrip {
  id: string;
  content: string;
  got: string[];
  missing: string[];
  listed: string[];
  anchor: string | undefined;
  injected: string;
  found: string[];
  provenance: unknown;
}

/**
 * Calls tools on `client` with `meta` as the request `_meta`, throwing on a tool error; each
 * answer is its structuredContent (as T) and its `_meta`.
 */
export function metaCaller(client: Client, meta: Record<string, unknown>) {
  return async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({
      name,
      arguments: args,
      _meta: meta,
    })) as CallToolResult;
    if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
    return { data: result.structuredContent as T, meta: result._meta };
  };
}

/**
 * Every memory-family tool and search_memory once, over any transport: store_memory of a
 * secret-bearing error pattern, then get, list, timeline, inject and search for it.
 */
export async function memoryRoundTrip(
  client: Client,
  meta: Record<string, unknown> = {},
): Promise<MemoryRoundTrip> {
  const call = metaCaller(client, meta);
  type Obs = { id: string; content: string };
  const stored = await call<{ observation: Obs }>('store_memory', {
    resource: 'error_pattern',
    data: {
      content: 'tsc failed: key ghp_Zx9Yw8Vu7TZx9Yw8Vu7TZx9Yw8Vu7Tqrstuv in src/env.ts',
      tags: ['ci'],
    },
  });
  const { id, content } = stored.data.observation;
  const got = await call<{ observations: Obs[]; missing: string[] }>('get_memories', {
    ids: [id, 'nope'],
  });
  const listed = await call<{ observations: Obs[] }>('list_memories', { tags: ['ci'] });
  const timeline = await call<{ anchor: Obs | null }>('memory_timeline', { anchor_id: id });
  const injected = await call<{ block: string }>('inject_context', { max_tokens: 200 });
  const found = await call<{ results: { id: string }[] }>('search_memory', { query: 'tsc failed' });
  return {
    id,
    content,
    got: got.data.observations.map((o) => o.id),
    missing: got.data.missing,
    listed: listed.data.observations.map((o) => o.id),
    anchor: timeline.data.anchor?.id,
    injected: injected.data.block,
    found: found.data.results.map((r) => r.id),
    provenance: stored.meta?.['cairn/provenance'],
  };
}
