// The validate family of cairn-context through a real SDK client (in-memory transport):
// tools/list, validate_code in both scopes with the readable text and the complete
// structuredContent, analyze_code for a file and a folder, list_rules, progress, and every
// refusal as a tool error naming its field.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  type DirectoryAnalysis,
  type FileAnalysis,
  listRules,
  type RuleInfo,
  type ValidateReport,
} from '../../src/code/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, linkedClient, toolNames } from '../helpers.js';
import {
  callContext,
  CONTEXT_TOOLS,
  contextCore,
  HYGIENE,
  makeProject,
  type Project,
} from './fixtures.js';

describe('cairn-context: the validate family', () => {
  let project: Project;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    project = makeProject();
    const t = await contextCore(project);
    client = await linkedClient(createContextServer(t.core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  it('initializes as cairn-context and lists only the working tools, read-only but for the writers', async () => {
    expect(client.getServerVersion()?.name).toBe('cairn-context');
    expect(await toolNames(client)).toEqual(CONTEXT_TOOLS);
    const writers = new Set([
      'index_repo',
      'clear_index',
      'store_memory',
      'start_session',
      'log_tool_call',
      'log_delegation',
      'summarize_session',
      'project',
      'entity',
    ]);
    for (const tool of (await client.listTools()).tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!writers.has(tool.name));
      expect(tool.inputSchema.type).toBe('object');
    }
    const validate = (await client.listTools()).tools.find((t) => t.name === 'validate_code');
    expect(validate?.inputSchema.required).toEqual(['path']);
    expect(Object.keys(validate?.inputSchema.properties ?? {})).toEqual([
      'scope',
      'path',
      'rules',
      'category',
    ]);
  });

  it('validate_code on a file: findings as text lines and in structuredContent', async () => {
    const path = join(project.root, 'src/load.ts');
    const { text, data, meta } = await callContext<ValidateReport>(client, 'validate_code', {
      path,
      rules: HYGIENE,
    });
    expect(data.scope).toBe('file');
    expect(data.findings.map((f) => [f.line, f.rule, f.severity])).toEqual([
      [2, 'todo-comment', 'info'],
      [3, 'debug-print', 'info'],
    ]);
    expect(data.counts).toMatchObject({ findings: 2, bySeverity: { info: 2 } });
    expect(text.split('\n')[0]).toBe(
      `validate_code file ${path}: 1 file checked, 2 findings (error 0, warning 0, info 2) in 1 file`,
    );
    expect(text).toContain(`${path}:2:6 info todo-comment: `);
    expect(text).toContain(`${path}:3:3 info debug-print: `);
    // The validate family needs no provenance, so none is recorded.
    expect(meta).toBeUndefined();
  });

  it('validate_code on the project: walked with its ignore rules, by rule and category', async () => {
    const all = await callContext<ValidateReport>(client, 'validate_code', {
      path: project.root,
      scope: 'project',
    });
    // No rules named: every rule runs.
    expect(all.data.rules).toEqual(listRules().map((r) => r.id));
    expect(all.data.files).toMatchObject({ read: 3, notRead: 0 });
    expect(all.data.files.skippedByWalk).toMatchObject({ default_dir: 1, extension: 1, binary: 1 });
    const hygienic = all.data.findings.filter((f) => HYGIENE.includes(f.rule));
    expect(hygienic.map((f) => `${f.path}:${f.line}:${f.rule}`)).toEqual([
      'src/load.ts:2:todo-comment',
      'src/load.ts:3:debug-print',
      'tools/f.py:2:debug-print',
      'tools/f.py:2:todo-comment',
    ]);
    expect(all.text).toContain('skipped by the walk: binary 1, default_dir 1, not code 1');
    const hygiene = await callContext<ValidateReport>(client, 'validate_code', {
      path: project.root,
      category: 'hygiene',
      rules: ['todo-comment'],
    });
    expect(hygiene.data.scope).toBe('project');
    expect(hygiene.data.rules).toEqual(['todo-comment']);
    expect(hygiene.data.counts.byRule).toEqual({ 'todo-comment': 2 });
    const none = await callContext<ValidateReport>(client, 'validate_code', {
      path: project.root,
      category: 'security',
    });
    expect(none.data.counts.findings).toBe(0);
  });

  it('validate_code reports progress per file when asked', async () => {
    const reports: unknown[] = [];
    await client.callTool({ name: 'validate_code', arguments: { path: project.root } }, undefined, {
      onprogress: (p) => reports.push(p),
    });
    expect(reports).toEqual([
      { progress: 1, total: 3, message: 'src/load.ts' },
      { progress: 2, total: 3, message: 'src/pick.ts' },
      { progress: 3, total: 3, message: 'tools/f.py' },
    ]);
  });

  it('analyze_code on a file: per-function metrics in a readable table', async () => {
    const path = join(project.root, 'src/pick.ts');
    const { text, data } = await callContext<FileAnalysis>(client, 'analyze_code', { path });
    expect(data.kind).toBe('file');
    expect(data.file.functions.map((f) => [f.name, f.cyclomatic])).toEqual([
      ['pick', 5],
      ['id', 1],
    ]);
    expect(data.file.functions[0]?.halstead).toMatchObject({ volume: expect.any(Number) });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`analyze_code ${path} (typescript): 6 lines, 6 SLOC, 0 comment, 0 blank`);
    expect(lines[2]).toBe('functions (2):');
    expect(lines[3]).toMatch(
      /^ {2}lines +name +SLOC +cyclomatic +cognitive +nesting +params +volume +MI$/,
    );
    expect(lines[4]).toMatch(/^ {2}1-5 +pick +5 +5 +\d+ +\d+ +2 +[\d.]+ +[\d.]+$/);
  });

  it('analyze_code on a folder: summaries, totals and the most complex functions', async () => {
    const { text, data } = await callContext<DirectoryAnalysis>(client, 'analyze_code', {
      path: project.root,
    });
    expect(data.kind).toBe('directory');
    expect(data.summaries.map((s) => s.path)).toEqual(['src/load.ts', 'src/pick.ts', 'tools/f.py']);
    expect(data.totals).toMatchObject({ files: 3, functions: 4 });
    expect(data.hotspots[0]).toMatchObject({ path: 'src/pick.ts', name: 'pick' });
    expect(text).toContain('most complex functions:\n  src/pick.ts:1 pick: cognitive');
  });

  it('list_rules lists every rule, narrowed by category or ids', async () => {
    const all = await callContext<{ rules: RuleInfo[]; categories: string[] }>(
      client,
      'list_rules',
      {},
    );
    expect(all.data.rules.length).toBeGreaterThanOrEqual(13);
    expect(all.data.categories).toContain('error handling');
    expect(all.text).toMatch(/^\d+ rules:\n/);
    expect(all.text).toMatch(
      /cyclomatic-complexity +complexity +warning +all 13 languages +cyclomatic > 10/,
    );
    const size = await callContext<{ rules: RuleInfo[] }>(client, 'list_rules', {
      category: 'size',
    });
    expect(new Set(size.data.rules.map((r) => r.category))).toEqual(new Set(['size']));
    const one = await callContext<{ rules: RuleInfo[] }>(client, 'list_rules', {
      rules: ['empty-catch'],
    });
    expect(one.data.rules.map((r) => r.id)).toEqual(['empty-catch']);
  });

  it('refuses bad arguments as tool errors naming the field', async () => {
    const file = join(project.root, 'src/load.ts');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'validate_code',
        { path: file, rules: ['no-such-rule'] },
        /^invalid args: rules: unknown rule id\(s\): no-such-rule/,
      ],
      ['validate_code', { path: '/etc/passwd', rules: ['nope'] }, /^invalid args: rules: /],
      [
        'validate_code',
        { path: file, category: 'style' },
        /^invalid args: category: unknown rule category/,
      ],
      ['validate_code', {}, /^invalid args: path: path is required/],
      [
        'validate_code',
        { path: '/etc/passwd' },
        /^invalid args: path: path "\/etc\/passwd" is outside the allowed roots/,
      ],
      [
        'validate_code',
        { path: join(project.root, 'nope.ts') },
        /^invalid args: path: .* does not exist/,
      ],
      [
        'validate_code',
        { path: join(project.root, 'src/blob.ts') },
        /^invalid args: path: .* is a binary file/,
      ],
      [
        'validate_code',
        { path: join(project.root, 'src'), scope: 'file' },
        /^invalid args: path: .* is a directory; scope "file" needs a file/,
      ],
      [
        'validate_code',
        { path: file, scope: 'project' },
        /^invalid args: path: .* is a file; scope "project" needs a directory/,
      ],
      [
        'validate_code',
        { path: file, scope: 'repo' },
        /^invalid args: scope: scope must be "file" or "project"/,
      ],
      [
        'validate_code',
        { path: join(project.root, 'README.md') },
        /^invalid args: path: .* not in a language with a grammar/,
      ],
      [
        'analyze_code',
        { path: '/etc/passwd' },
        /^invalid args: path: .* outside the allowed roots/,
      ],
      ['analyze_code', { path: '' }, /^invalid args: path: path must be a non-empty string$/],
      ['list_rules', { category: 'style' }, /^invalid args: category: /],
      ['list_rules', { rules: ['x'] }, /^invalid args: rules: unknown rule id\(s\): x/],
    ];
    for (const [tool, args, expected] of cases) {
      expect(await callInvalid(client, tool, args), `${tool} ${JSON.stringify(args)}`).toMatch(
        expected,
      );
    }
  });

  it('bounds a large answer and says how to narrow it', async () => {
    for (let i = 0; i < 120; i++) {
      project.write(`many/m${i}.ts`, '// TODO one\n// TODO two\nconsole.log(1);\n');
    }
    const { text, data } = await callContext<ValidateReport>(client, 'validate_code', {
      path: join(project.root, 'many'),
      rules: HYGIENE,
    });
    expect(data.counts.findings).toBe(360);
    expect(data.findings.length).toBe(200);
    expect(data).toMatchObject({ truncated: true, truncatedBy: ['shown'] });
    expect(data.hint).toMatch(/^showing 200 of 360 findings from 120 files; .*Narrow it: /);
    expect(text.split('\n').at(-1)).toMatch(/^truncated \(shown\): showing 200 of 360/);
    expect(Buffer.byteLength(JSON.stringify(data))).toBeLessThan(96 * 1024);
  });
});
