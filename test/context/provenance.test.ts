// Execution provenance in cairn-context, through a real SDK client: a tool of the index family
// (declared with provenancedTool, as index_repo will be) served beside the validate family. The
// provenance it ran with is in `_meta["cairn/provenance"]`; each fast-fail is JSON-RPC -32602
// with the spec's message and the handler never runs; the request `_meta` overrides any field;
// the client name is the agent_program; discovery runs once per process. The family table
// refuses an index tool that skips the check, and a tool listed twice.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { MODEL_ID_HINT, PARENT_HINT, type Provenance } from '../../src/activity/index.js';
import type { Core } from '../../src/core/index.js';
import { contextTools } from '../../src/mcp/context/index.js';
import {
  CONTEXT_FAMILIES,
  type ContextFamily,
  contextTool,
  createContextServer,
  PROVENANCE_META_KEY,
  provenancedTool,
} from '../../src/mcp/index.js';
import { linkedClient, toolNames } from '../helpers.js';
import { callContext, CONTEXT_TOOLS, contextCore, FULL_ENV, makeProject } from './fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** How many times the probe's handler ran, and the provenance it saw last. */
const probe = { runs: 0, seen: undefined as Provenance | undefined };

const indexFamily: ContextFamily = {
  name: 'index',
  tools: () => [
    provenancedTool('index', {
      name: 'probe_index',
      description: 'test tool of the index family: echoes the provenance it ran with',
      input: z.object({}),
      handler: (_args, ctx) => {
        probe.runs++;
        probe.seen = ctx.provenance;
        return Promise.resolve({ text: 'ran', data: { ran: true }, meta: { other: 1 } });
      },
    }),
  ],
};

async function open(
  env: Record<string, string>,
  clientName = 'cairn-test',
): Promise<{
  core: Core;
  client: Client;
  root: string;
}> {
  const project = makeProject();
  const t = await contextCore(project, env);
  const server = createContextServer(t.core, { families: [...CONTEXT_FAMILIES, indexFamily] });
  const client = await linkedClient(server, clientName);
  cleanups.push(async () => {
    await client.close();
    await t.close();
    project.dir.cleanup();
  });
  probe.runs = 0;
  probe.seen = undefined;
  return { core: t.core, client, root: project.root };
}

/** Calls probe_index with `_meta`; the -32602 message, or the provenance in the result. */
async function callProbe(
  client: Client,
  meta: Record<string, unknown> = {},
): Promise<{ rpc: string } | { provenance: Provenance; meta: Record<string, unknown> }> {
  try {
    const r = await client.callTool({ name: 'probe_index', arguments: {}, _meta: meta });
    const m = r._meta ?? {};
    return { provenance: m[PROVENANCE_META_KEY] as Provenance, meta: m };
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.InvalidParams) {
      return { rpc: err.message.replace(/^MCP error -32602: /, '') };
    }
    throw err;
  }
}

describe('cairn-context provenance', () => {
  it('records the provenance a call ran with in _meta, from discovery and the client', async () => {
    const { client, root } = await open(FULL_ENV, 'claude-code');
    expect(await toolNames(client)).toEqual([...CONTEXT_TOOLS, 'probe_index'].sort());
    const before = Math.floor(Date.now() / 1000);
    const out = await callProbe(client);
    if ('rpc' in out) throw new Error(out.rpc);
    expect(out.meta['other']).toBe(1);
    expect(out.provenance).toMatchObject({
      session_id: 'cairn-stdio-test-host-4242-1760000000',
      repo_path: root,
      worktree_id: root,
      operator_id: 'ann',
      machine_id: 'test-host',
      agent_program: 'claude-code',
      model_id: 'test-model',
      delegated: false,
    });
    expect(out.provenance.timestamp).toBeGreaterThanOrEqual(before);
    expect(probe.seen).toEqual(out.provenance);
  });

  it('fails fast with -32602 and the spec message; the handler never runs', async () => {
    const { client } = await open({ USER: 'ann' });
    expect(await callProbe(client)).toEqual({
      rpc: `Missing execution provenance for 'index': model_id. ${MODEL_ID_HINT}`,
    });
    const noUser = await open({ CAIRN_MODEL_ID: 'm' });
    expect(await callProbe(noUser.client)).toEqual({
      rpc: "Missing execution provenance for 'index': operator_id",
    });
    expect(probe.runs).toBe(0);
  });

  it('the request _meta overrides any field, and is checked', async () => {
    const { client } = await open({ USER: 'ann' });
    const out = await callProbe(client, {
      model_id: 'gpt-5',
      session_id: 'abc',
      agent_program: 'codex',
      progressToken: 'ignored',
    });
    if ('rpc' in out) throw new Error(out.rpc);
    expect(out.provenance).toMatchObject({
      model_id: 'gpt-5',
      session_id: 'abc',
      agent_program: 'codex',
    });
    expect(await callProbe(client, { model_id: 'm', session_id: 42 })).toEqual({
      rpc: 'Invalid execution provenance: _meta.session_id must be a string (got number)',
    });
    expect(await callProbe(client, { model_id: 'm', delegated: true })).toEqual({
      rpc: `Missing execution provenance for 'index': parent_session_id. ${PARENT_HINT}`,
    });
    const child = await callProbe(client, { model_id: 'm', parent_session_id: 'lead-1' });
    if ('rpc' in child) throw new Error(child.rpc);
    expect(child.provenance).toMatchObject({ delegated: true, parent_session_id: 'lead-1' });
    expect(probe.runs).toBe(2);
  });

  it('the validate family runs without provenance', async () => {
    const { client, root } = await open({});
    const r = await callContext(client, 'list_rules', {});
    expect(r.meta).toBeUndefined();
    const v = await callContext(client, 'validate_code', { path: root });
    expect(v.data).toMatchObject({ scope: 'project' });
  });

  it('discovers once per process, shared by every server instance', async () => {
    let gitCalls = 0;
    const project = makeProject();
    const t = await contextCore(project, FULL_ENV, {
      provenance: {
        env: FULL_ENV,
        cwd: project.root,
        git: () => {
          gitCalls++;
          return Promise.resolve(undefined);
        },
      },
    });
    cleanups.push(async () => {
      await t.close();
      project.dir.cleanup();
    });
    const families = [...CONTEXT_FAMILIES, indexFamily];
    const a = await linkedClient(createContextServer(t.core, { families }));
    const b = await linkedClient(createContextServer(t.core, { families }));
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await callProbe(a);
    await callProbe(b);
    const once = gitCalls;
    expect(once).toBeGreaterThan(0);
    await callProbe(a);
    expect(gitCalls).toBe(once);
  });

  it('logs a value discovery refused, once', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
    const project = makeProject();
    const env = { USER: 'ann', OPENAI_MODEL: 'bad\u0007model', CAIRN_MODEL_ID: 'ok' };
    const t = await contextCore(project, env, { logger });
    cleanups.push(async () => {
      await t.close();
      project.dir.cleanup();
    });
    const client = await linkedClient(
      createContextServer(t.core, { families: [...CONTEXT_FAMILIES, indexFamily] }),
    );
    cleanups.push(() => client.close());
    const out = await callProbe(client);
    await callProbe(client);
    if ('rpc' in out) throw new Error(out.rpc);
    expect(out.provenance.model_id).toBe('ok');
    // The store's own start warnings (on PostgreSQL without pgvector: exact cosine in the store)
    // name the database; every other warning counts.
    const warned = lines.filter(
      (l) => (JSON.parse(l) as { db?: string }).db !== t.core.store.location,
    );
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({
      field: 'model_id',
      source: 'env:OPENAI_MODEL',
    });
  });

  it('the family table refuses an index tool without the check, and a name listed twice', async () => {
    const project = makeProject();
    const t = await contextCore(project);
    cleanups.push(async () => {
      await t.close();
      project.dir.cleanup();
    });
    const unchecked: ContextFamily = {
      name: 'index',
      tools: () => [
        contextTool({
          name: 'index_repo',
          description: 'x',
          input: z.object({}),
          handler: () => Promise.resolve({ data: {} }),
        }),
      ],
    };
    expect(() => contextTools(t.core, [unchecked])).toThrow(
      'context tool index_repo (index) must check provenance',
    );
    expect(() => contextTools(t.core, [...CONTEXT_FAMILIES, ...CONTEXT_FAMILIES])).toThrow(
      /listed twice/,
    );
  });
});
