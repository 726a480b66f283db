// The error contract every server keeps, generated from each tool's advertised inputSchema:
// a wrong type for any field is the tool error `invalid args: <field>: …` with
// `_meta.denied.reason` "invalid_args" (MCP 2025-11-25, SEP-1303), each problem named once;
// and `null` for any optional field means "not given" (it is never refused where leaving the
// field out would not be). One test per server; the first two tell-tale duplicates by name.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';

import { createBroker } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import {
  createBackplaneServer,
  createContextServer,
  createMemoryServer,
  createTasksServer,
  createTeamChatServer,
  createToolsServer,
  createVaultServer,
} from '../../src/mcp/index.js';
import { OPERATOR } from '../backplane/helpers.js';
import { discoveryOf, FULL_ENV, makeProject } from '../context/fixtures.js';
import { callInvalid, callOk, tempDir } from '../helpers.js';
import { callVault, NOTES, writeNotes } from '../vault/fixtures.js';
import type { SchemaNode } from './generate.js';
import {
  callOnce,
  closeOpened,
  connect,
  invalidArgsProblem,
  openCore,
  type Outcome,
  shorten,
} from './harness.js';

afterEach(closeOpened);

type Plausible = Record<string, unknown>;

/** Valid-looking arguments: every field with a plausible value, and every required one. */
function baseArgs(schema: SchemaNode, plausible: Plausible): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [field, s] of Object.entries(schema.properties ?? {})) {
    if (Object.hasOwn(plausible, field)) args[field] = plausible[field];
    else if (required.has(field)) args[field] = s.enum?.[0] ?? fallback(s);
  }
  return args;
}

function fallback(s: SchemaNode): unknown {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return 'x';
}

/** A value of the wrong JSON type for a field of schema `s`. */
const wrongType = (s: SchemaNode): unknown => {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  return type === 'string' ? 42 : 'not-a-number-or-list';
};

const optionalFields = (tool: Tool): string[] => {
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.keys(tool.inputSchema.properties ?? {}).filter((f) => !required.has(f));
};

const invalidText = (o: Outcome): string | undefined => {
  if (o.kind !== 'result' || o.result.isError !== true) return undefined;
  const reason = (o.result._meta?.['denied'] as { reason?: unknown } | undefined)?.reason;
  const first = o.result.content[0];
  return reason === 'invalid_args' && first?.type === 'text' ? first.text : undefined;
};

/** Each field sent with the wrong type is `invalid args` naming it, once. */
async function wrongTypeProblems(
  client: Client,
  tool: Tool,
  base: Record<string, unknown>,
  ignored: readonly string[],
): Promise<string[]> {
  const wrong: string[] = [];
  const properties = (tool.inputSchema as SchemaNode).properties ?? {};
  for (const [field, s] of Object.entries(properties)) {
    if (ignored.includes(field)) continue;
    const outcome = await callOnce(client, tool.name, { ...base, [field]: wrongType(s) });
    const text = invalidText(outcome);
    const named = text
      ?.replace(/^invalid args: /, '')
      .split('; ')
      .filter((p) => p.startsWith(field) && /^[.[:]/.test(p.slice(field.length)));
    const bad =
      text === undefined ? 'not invalid args' : invalidArgsProblem(text, Object.keys(properties));
    if (bad !== null || named?.length !== 1) {
      wrong.push(`${tool.name}.${field} wrong type → ${bad ?? 'named twice'}: ${shorten(outcome)}`);
    }
  }
  return wrong;
}

/** Each optional field (and all of them together) sent as null is answered as if left out. */
async function nullProblems(
  client: Client,
  tool: Tool,
  base: Record<string, unknown>,
): Promise<{ wrong: string[]; checked: number }> {
  const wrong: string[] = [];
  const optional = optionalFields(tool);
  const variants = [...optional.map((f) => [f]), ...(optional.length > 1 ? [optional] : [])];
  for (const nulled of variants) {
    const args = { ...base, ...Object.fromEntries(nulled.map((f) => [f, null])) };
    const outcome = await callOnce(client, tool.name, args);
    const refused =
      outcome.kind === 'rpc' || outcome.kind === 'crash' || outcome.kind === 'timeout';
    const text = invalidText(outcome);
    if (!refused && text === undefined) continue;
    // Refused only as leaving the fields out is refused (a fact's missing title, say).
    const absent = Object.fromEntries(Object.entries(base).filter(([k]) => !nulled.includes(k)));
    const reference = invalidText(await callOnce(client, tool.name, absent));
    if (refused || text !== reference) {
      wrong.push(`${tool.name} ${nulled.join('+')}: null → ${shorten(outcome)}`);
    }
  }
  return { wrong, checked: variants.length };
}

/**
 * The contract over every listed tool; the broken rules, or [] (and how many null variants ran,
 * so an empty listing cannot pass).
 */
async function checkContract(
  client: Client,
  /** One set for every tool, or per tool (a `resource` valid for one tool is not for another). */
  plausible: Plausible | ((tool: string) => Plausible),
  /** Fields the session's binding overrides: removed before validation, never refused. */
  ignored: readonly string[] = [],
): Promise<string[]> {
  const wrong: string[] = [];
  let checked = 0;
  for (const tool of (await client.listTools()).tools) {
    const forTool = typeof plausible === 'function' ? plausible(tool.name) : plausible;
    const base = baseArgs(tool.inputSchema as SchemaNode, forTool);
    wrong.push(...(await wrongTypeProblems(client, tool, base, ignored)));
    const nulls = await nullProblems(client, tool, base);
    wrong.push(...nulls.wrong);
    checked += nulls.checked;
  }
  if (checked === 0) wrong.push('no optional field was checked');
  return wrong;
}

describe('validation errors are tool errors, and null optionals are accepted', () => {
  it('tasks', async () => {
    const core = await openCore();
    const client = await connect(createTasksServer(core, {}));
    const root = await callOk<{ id: string }>(client, 'create_task', {
      title: 'Root',
      teamId: 'team-a',
    });
    const dep = await callOk<{ id: string }>(client, 'create_task', {
      title: 'Dep',
      teamId: 'team-a',
    });
    const plausible = {
      ...{ taskId: root.id, parentTaskId: root.id, dependsOnTaskId: dep.id, title: 'T' },
      ...{ assigneeAgentId: 'agent-a', teamId: 'team-a', body: 'a comment', status: 'todo' },
    };
    expect(await checkContract(client, plausible)).toEqual([]);
  });

  it('memory', async () => {
    const core = await openCore();
    const client = await connect(createMemoryServer(core, {}));
    const saved = await callOk<{ fact: { id: string } }>(client, 'memory_save', {
      title: 'Seed',
      content: 'Keys rotate monthly.',
    });
    const plausible = { id: saved.fact.id, content: 'Sweep fact.', title: 'Sweep', query: 'keys' };
    expect(await checkContract(client, { ...plausible, tags: ['ops'] })).toEqual([]);
  });

  it('teamchat: unbound and delegate', async () => {
    const core = await openCore();
    const unbound = await connect(createTeamChatServer(core, {}));
    const lead = { roomTeamId: 'team-a', postAuthorAgentId: 'lead', delegate: true };
    const delegate = await connect(createTeamChatServer(core, lead));
    const plausible = {
      ...{ text: 'hi @bob', authorAgentId: 'bob', teamId: 'team-a', roomId: 'team:team-a' },
      ...{ assignee: 'bob', task: 'Write the notes', waitMs: 0 },
    };
    expect(await checkContract(unbound, plausible)).toEqual([]);
    expect(await checkContract(delegate, plausible, ['authorAgentId', 'teamId', 'roomId'])).toEqual(
      [],
    );
  });

  it('tools (the broker)', async () => {
    const base = await openCore();
    const fetchStub: typeof fetch = () =>
      Promise.resolve(Response.json({ results: [{ title: 'T', url: 'u', content: 'c' }] }));
    // Gated calls expire at once instead of waiting 5 min; the circuit never opens.
    const config = { approvalPollMs: 5, approvalTtlMs: 30, circuitThreshold: 1e9 };
    const env = { TAVILY_API_KEY: 'contract-fake-key' };
    const core: Core = {
      ...base,
      broker: createBroker(base.store, { config, env, fetch: fetchStub }),
    };
    const client = await connect(createToolsServer(core, {}));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('web_search');
    const plausible = {
      message: 'hi',
      note: 'remember',
      query: 'cairn',
      path: 'nowhere.txt',
      limit: 5,
    };
    expect(await checkContract(client, plausible)).toEqual([]);
  });

  it('backplane', async () => {
    const core = await openCore();
    const client = await connect(createBackplaneServer(core, { principal: OPERATOR }));
    const plausible = {
      ...{ nick: 'sweep-1', channel: '#general', type: 'text', payload: { text: 'hi' } },
      ...{ channels: ['#general'], to: ['@all'], limit: 5 },
    };
    expect(await checkContract(client, plausible)).toEqual([]);
  });

  it('context', async () => {
    const project = makeProject();
    onTestFinished(() => project.dir.cleanup());
    const root = project.root;
    const core = await openCore({ codeRoots: [root], provenance: discoveryOf(FULL_ENV, root) });
    const client = await connect(createContextServer(core));
    const plausible = {
      ...{ path: join(root, 'src/load.ts'), scope: 'file', rules: ['todo-comment'] },
      category: 'hygiene',
      ...{ repo_path: root, base_branch: 'main', target_branch: 'HEAD', depth: 2, limit: 5 },
      ...{ collection: 'demo', dry_run: true, wait_seconds: 0 },
      ...{ query: 'load', min_score: 0.5, filters: ['lang:ts'], token: 't' },
      ...{ data: { content: 'the build failed' }, ids: ['nope'], max_tokens: 100 },
      ...{ session_id: 's-1', data: { tool_name: 'read_file' }, status: 'active' },
      ...{ agent_type: 'worker', project_id: 'acme/app', worktree_id: 'main' },
    };
    const resource: Record<string, string> = {
      search_memory: 'memory',
      store_memory: 'observation',
      get_memories: 'observation',
      list_memories: 'observation',
      memory_timeline: 'observation',
      inject_context: 'observation',
      project: 'issue',
      entity: 'branch',
    };
    const forTool = (tool: string) => ({ ...plausible, resource: resource[tool] ?? 'code' });
    expect(await checkContract(client, forTool)).toEqual([]);
  });

  it('vault', async () => {
    const notes = tempDir('cairn-contract-vault-');
    onTestFinished(() => notes.cleanup());
    writeNotes(notes.path, NOTES);
    const core = await openCore();
    const client = await connect(createVaultServer(core));
    await callVault(client, 'vault_sync', { vault: 'default', content_root: notes.path });
    const plausible = {
      ...{ query: 'queue retry', limit: 5, file: 'decisions/queue.md', pattern: '**/*.md' },
      ...{ docid: 'decisions/queue.md', vault: 'default', content_root: notes.path },
      ...{ collection: 'default', minScore: 0.1, until: '2030-01-01', mode: 'keyword' },
    };
    expect(await checkContract(client, plausible)).toEqual([]);
  });
});

describe('each problem is named once', () => {
  it('an oversized description (chars and bytes over 64 KiB) is one problem', async () => {
    const client = await connect(createTasksServer(await openCore(), {}));
    const description = 'x'.repeat(65_537);
    expect(await callInvalid(client, 'create_task', { title: 't', description })).toBe(
      'invalid args: description: description is larger than 64 KiB',
    );
  });

  it('an empty teamId is one problem (not also "must not be blank")', async () => {
    const client = await connect(createTasksServer(await openCore(), {}));
    expect(await callInvalid(client, 'list_tasks', { teamId: '' })).toBe(
      'invalid args: teamId: teamId must be a non-empty string',
    );
    expect(await callInvalid(client, 'list_tasks', { teamId: '   ' })).toBe(
      'invalid args: teamId: teamId must not be blank',
    );
  });

  it('likewise for memory content, teamchat text and a tools-server string', async () => {
    const core = await openCore();
    const memory = await connect(createMemoryServer(core, {}));
    expect(await callInvalid(memory, 'memory_save', { title: 't', content: '' })).toBe(
      'invalid args: content: content must be a non-empty string',
    );
    const chat = await connect(
      createTeamChatServer(core, { roomTeamId: 't', postAuthorAgentId: 'a' }),
    );
    expect(await callInvalid(chat, 'team_chat_post', { text: 'x'.repeat(32_769) })).toBe(
      'invalid args: text: text is larger than 32 KiB',
    );
    const tools = await connect(createToolsServer(core, {}));
    expect(await callInvalid(tools, 'note', { note: '' })).toBe(
      'invalid args: note: note must be a non-empty string',
    );
  });
});
