// Every resource of the project and entity tools once, over any transport: the whole graph is
// created parent first, each row is read, updated and listed by its scope, then everything is
// deleted child first (a parent's delete, tried first, is refused naming its dependents).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { linkedClient } from '../helpers.js';
import { type Ids, P, type Step, STEPS } from './entity-steps.js';
import { contextCore, makeProject } from './fixtures.js';

type Args = Record<string, unknown>;

/** A call's structuredContent; throws with the text on a tool error. */
export type Caller = (tool: string, args: Args) => Promise<Record<string, unknown>>;

/** A Caller over `client`, sending `meta` as the request `_meta`. */
export function callerOf(client: Client, meta: Args = {}): Caller {
  return async (tool, args) => {
    const r = (await client.callTool({
      name: tool,
      arguments: args,
      _meta: meta,
    })) as CallToolResult;
    const first = r.content[0];
    const text = first?.type === 'text' ? first.text : '';
    if (r.isError === true)
      throw new Error(`${tool} ${String(args['action'])} ${String(args['resource'])}: ${text}`);
    return r.structuredContent as Record<string, unknown>;
  };
}

/** How a step's row is addressed for get/update/delete. */
const address = (s: Step, ids: Ids): Args => {
  const id = ids[s.key] ?? '';
  if (s.tool === 'entity') return { id };
  return s.resource === 'project' ? P : { ...P, data: { id } };
};

const withData = (a: Args, data: Args): Args => ({
  ...a,
  data: { ...(a['data'] as Args | undefined), ...data },
});

/** What roundTrip saw, for the suites to check. */
export interface RoundTrip {
  ids: Ids;
  updated: string[];
  listed: string[];
  deleted: string[];
  refusedParent: string;
  secret: string;
  createdBy: unknown;
}

/** Creates, reads, updates, lists and deletes every resource of both tools once. */
export async function roundTrip(call: Caller): Promise<RoundTrip> {
  const ids: Ids = {};
  let secret = '';
  for (const s of STEPS) {
    const out = await call(s.tool, { action: 'create', resource: s.resource, ...s.create(ids) });
    ids[s.key] = (out['record'] as { id: string }).id;
    if (s.key === 'api_key') secret = String(out['secret']);
  }
  const got = await call('entity', {
    action: 'get',
    resource: 'repository',
    id: ids['repository'],
  });
  const createdBy = (got['record'] as Args)['createdBy'];
  const updated: string[] = [];
  const listed: string[] = [];
  for (const s of STEPS) {
    await call(s.tool, { action: 'get', resource: s.resource, ...address(s, ids) });
    if (Object.keys(s.update).length > 0) {
      const out = await call(s.tool, {
        action: 'update',
        resource: s.resource,
        ...withData(address(s, ids), s.update),
      });
      updated.push(...(out['changed'] as string[]).map((c) => `${s.key}.${c}`));
    }
    const scope = s.tool === 'project' ? P : (s.scope?.(ids) ?? {});
    const list = await call(s.tool, { action: 'list', resource: s.resource, ...scope });
    if ((list['records'] as { id: string }[]).some((r) => r.id === ids[s.key])) listed.push(s.key);
  }
  const refusedParent = await call('entity', {
    action: 'delete',
    resource: 'org',
    id: ids['org'],
  }).then(
    () => '',
    (err: Error) => err.message,
  );
  const deleted: string[] = [];
  for (const s of [...STEPS].reverse()) {
    if (s.key === 'assignment')
      await call('entity', { action: 'release', resource: 'assignment', id: ids['assignment'] });
    await call(s.tool, { action: 'delete', resource: s.resource, ...address(s, ids) });
    deleted.push(s.key);
  }
  return { ids, updated, listed, deleted, refusedParent, secret, createdBy };
}

/** Two issues of project `cyc` that depend on each other: the refusal's text (the cycle). */
export async function cycleRefusal(call: Caller): Promise<{ text: string; a: string; b: string }> {
  await call('project', { action: 'create', resource: 'project', project_id: 'cyc' });
  const issue = async (title: string) =>
    (
      (
        await call('project', {
          action: 'create',
          resource: 'issue',
          project_id: 'cyc',
          data: { title },
        })
      )['record'] as { id: string }
    ).id;
  const [a, b] = [await issue('a'), await issue('b')];
  const dep = (from: string, to: string) =>
    call('project', {
      action: 'create',
      resource: 'dependency',
      project_id: 'cyc',
      data: { from_id: from, depends_on_id: to },
    });
  await dep(a, b);
  const text = await dep(b, a).then(
    () => '',
    (err: Error) => err.message,
  );
  return { text, a, b };
}

/** The transport suites' check: every resource's round trip, then a refused cycle. */
export async function expectBothTools(call: Caller): Promise<void> {
  const keys = STEPS.map((s) => s.key);
  const r = await roundTrip(call);
  expect(Object.keys(r.ids)).toEqual(keys);
  expect(r.listed).toEqual(keys);
  expect(r.deleted).toEqual([...keys].reverse());
  expect(r.refusedParent).toMatch(/cannot be deleted: \d+ rows depend on it/);
  expect(r.secret).toMatch(/^cairn_sk_/);
  const cycle = await cycleRefusal(call);
  expect(cycle.text).toContain(`would close a cycle ${cycle.b} → ${cycle.a} → ${cycle.b}`);
}

/** A context server over a fresh core, its client (named test-agent), and call helpers. */
export interface EntityHarness {
  core: Core;
  client: Client;
  call: Caller;
  /** Creates a row and answers its id. */
  create(tool: string, resource: string, args: Args): Promise<string>;
  close(): Promise<void>;
}

export async function entityHarness(): Promise<EntityHarness> {
  const project = makeProject();
  const t = await contextCore(project);
  const client = await linkedClient(createContextServer(t.core), 'test-agent');
  const call = callerOf(client);
  return {
    core: t.core,
    client,
    call,
    create: async (tool, resource, args) =>
      ((await call(tool, { action: 'create', resource, ...args }))['record'] as { id: string }).id,
    close: async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    },
  };
}

/** `_meta.denied.reason` of a tool result. */
export const reason = (meta: Args | undefined): unknown =>
  (meta?.['denied'] as Args | undefined)?.['reason'];
