// The context server over Streamable HTTP (createHttpService on 127.0.0.1, port 0): mounted at
// /api/mcp/context behind the bearer token, every tool and a refusal through an SDK client,
// search_code over what index_repo indexed, progress notifications on the response stream,
// and the attach snippet GET /api/mcp/config writes for it.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { DirectoryAnalysis, RuleInfo, ValidateReport } from '../../src/code/index.js';
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
import { callInvalid, toolNames } from '../helpers.js';
import { httpSessions, initializeStatus, type Running, TOKEN } from './helpers.js';

describe('context server over HTTP', () => {
  let svc: Running;
  let project: Project;
  const sessions = httpSessions();

  beforeEach(async () => {
    project = makeProject();
    svc = await sessions.start({}, { embedder: null, codeRoots: [project.root] });
  });
  afterEach(async () => {
    await sessions.closeAll();
    project.dir.cleanup();
  });

  const url = (): string => `${svc.base}/api/mcp/context`;

  it('serves cairn-context at /api/mcp/context: every tool and a refusal', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    expect(client.getServerVersion()?.name).toBe('cairn-context');
    expect(await toolNames(client)).toEqual(CONTEXT_TOOLS);
    const v = await callContext<ValidateReport>(client, 'validate_code', {
      path: join(project.root, 'tools/f.py'),
      rules: HYGIENE,
    });
    expect(v.data.findings.map((f) => f.rule)).toEqual(['debug-print', 'todo-comment']);
    const a = await callContext<DirectoryAnalysis>(client, 'analyze_code', { path: project.root });
    expect(a.data.totals).toMatchObject({ files: 3, functions: 4 });
    const r = await callContext<{ rules: RuleInfo[] }>(client, 'list_rules', {
      category: 'security',
    });
    expect(r.data.rules.map((x) => x.id)).toEqual([
      'hardcoded-secret',
      'eval-usage',
      'weak-hash',
      'shell-injection',
      'sql-injection',
    ]);
    expect(await callInvalid(client, 'analyze_code', { path: '/etc/passwd' })).toMatch(
      /^invalid args: path: path "\/etc\/passwd" is outside the allowed roots/,
    );
  });

  it('the project and entity tools: every resource round trip, and a cycle refused', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const call = callerOf(client, { model_id: 'http-model', operator_id: 'ann' });
    await expectBothTools(call);
  });

  it('the memory family and search_memory, with the provenance the request gave', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const r = await memoryRoundTrip(client, { model_id: 'http-model', operator_id: 'ann' });
    expect(r.content).not.toContain('ghp_Zx9Yw8Vu7TZx9Yw8Vu7TZx9Yw8Vu7Tqrstuv');
    expect(r).toMatchObject({ got: [r.id], missing: ['nope'], listed: [r.id], anchor: r.id });
    expect(r.found).toEqual([r.id]);
    expect(r.injected).toContain(r.id);
    expect(r.provenance).toMatchObject({ model_id: 'http-model', operator_id: 'ann' });
  });

  it('the session and agent families, summarize_session included', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const r = await sessionRoundTrip(client, { model_id: 'http-model', operator_id: 'ann' });
    expectSessionRoundTrip(r);
    expect(r.provenance).toMatchObject({ model_id: 'http-model', operator_id: 'ann' });
  });

  it('search_code finds what index_repo indexed, with the provenance the request gave', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const r = await indexThenSearch(client, project.root, 'pick', {
      model_id: 'http-model',
      operator_id: 'ann',
    });
    expect(r.isError).toBeUndefined();
    const data = r.structuredContent as { status: string; results: unknown[] };
    expect(data.status).toBe('ok');
    expect(data.results[0]).toMatchObject({
      path: 'src/pick.ts',
      symbol: 'pick',
      start_line: 1,
      end_line: 5,
    });
    expect(r._meta?.['cairn/provenance']).toMatchObject({ model_id: 'http-model' });
    expect(await callInvalid(client, 'search_code', { query: 'pick', resource: 'memory' })).toMatch(
      /^invalid args: resource: /,
    );
  });

  it('sends progress notifications on the response stream', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const reports: unknown[] = [];
    const result = await client.callTool(
      { name: 'analyze_code', arguments: { path: project.root } },
      undefined,
      { onprogress: (p) => reports.push(p) },
    );
    expect(result.isError).toBeUndefined();
    expect(reports).toHaveLength(3);
    expect(reports.at(-1)).toEqual({ progress: 3, total: 3, message: 'tools/f.py' });
  });

  it('refuses a wrong bearer token like every MCP mount', async () => {
    expect(await initializeStatus(url(), 'wrong-token')).toBe(401);
  });

  it('GET /api/mcp/config writes the attach snippet for it', async () => {
    const res = await fetch(
      `${svc.base}/api/mcp/config?runtime=claude-code&server=context&transport=http`,
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; snippet: string };
    expect(body.url).toBe(url());
    const doc = JSON.parse(body.snippet) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    expect(doc.mcpServers['cairn-context']).toEqual({
      type: 'http',
      url: url(),
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
  });
});
