// The official MCP conformance suite (@modelcontextprotocol/conformance, offline) against a real
// `cairn serve --no-auth` on loopback, at the tasks, context and graph servers' mounts. Every
// scenario must pass unless it is listed, with a one-line reason, in the server's expected
// failures file; a listed scenario that passes fails the test too.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT, tempDir, type TempDir } from '../helpers.js';
import { type ServeProcess, spawnServe } from '../http/helpers.js';

const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The servers run through the suite, and the file naming each one's expected failures. */
const SERVERS = [
  { name: 'tasks', title: 'cairn-tasks', expected: 'expected-failures.json' },
  { name: 'context', title: 'cairn-context', expected: 'expected-failures-context.json' },
  { name: 'graph', title: 'cairn-graph', expected: 'expected-failures-graph.json' },
] as const;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
}

interface Outcome {
  passed: boolean;
  failures: string[];
  warnings: string[];
}

function conformance(args: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`conformance did not finish: ${error.message}\n${stderr}`));
          return;
        }
        resolve({ code: error === null ? 0 : Number(error.code), stdout });
      },
    );
  });
}

/** Reads `server-<scenario>-<timestamp>/checks.json` for every scenario that ran. */
function readOutcomes(outDir: string): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  for (const entry of readdirSync(outDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry);
    if (m?.[1] === undefined) continue;
    const checks = JSON.parse(readFileSync(join(outDir, entry, 'checks.json'), 'utf8')) as Check[];
    const failures = checks
      .filter((c) => c.status === 'FAILURE')
      .map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`);
    const warnings = checks
      .filter((c) => c.status === 'WARNING')
      .map((c) => `${c.id}: ${c.errorMessage ?? 'warning'}`);
    outcomes.set(m[1], { passed: failures.length === 0, failures, warnings });
  }
  return outcomes;
}

describe.each(SERVERS)('MCP conformance suite: $title', (server) => {
  let serve: ServeProcess | undefined;
  let work: TempDir | undefined;
  let scenarios: string[] = [];
  let outcomes = new Map<string, Outcome>();
  let expected: Record<string, string> = {};

  beforeAll(async () => {
    const file = join(ROOT, 'test/conformance', server.expected);
    expected = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    work = tempDir('cairn-conformance-');
    serve = await spawnServe(['--no-auth']);
    const listed = await conformance(['list', '--server'], work.path);
    scenarios = [...listed.stdout.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1] ?? '');
    const outDir = join(work.path, 'results');
    // `--suite all` includes the pending scenarios. The exit code is 1 whenever anything fails;
    // the per-scenario checks below decide.
    await conformance(
      ['server', '--url', `${serve.base}/api/mcp/${server.name}`, '--suite', 'all', '-o', outDir],
      work.path,
    );
    outcomes = readOutcomes(outDir);
  }, 300_000);

  afterAll(async () => {
    await serve?.cleanup();
    work?.cleanup();
  });

  it('lists its server scenarios and runs every one of them', () => {
    expect(scenarios.length).toBeGreaterThan(20);
    expect(scenarios).toContain('server-initialize');
    expect([...outcomes.keys()].sort()).toEqual([...scenarios].sort());
  });

  it('keeps the expected-failures list honest: known scenarios, one line of reason each', () => {
    for (const [scenario, reason] of Object.entries(expected)) {
      expect(scenarios, scenario).toContain(scenario);
      expect(reason.trim(), scenario).not.toBe('');
      expect(reason, scenario).not.toMatch(/\n/);
    }
  });

  it('passes every scenario not on the list, and fails every scenario on it', () => {
    const unexpected: string[] = [];
    const stale: string[] = [];
    const summary: string[] = [];
    for (const scenario of scenarios) {
      const outcome = outcomes.get(scenario);
      if (outcome === undefined) continue;
      const listed = Object.hasOwn(expected, scenario);
      if (!outcome.passed && !listed)
        unexpected.push(`${scenario}: ${outcome.failures.join('; ')}`);
      if (outcome.passed && listed) stale.push(scenario);
      const mark = outcome.passed ? 'pass' : listed ? 'expected failure' : 'FAIL';
      const notes =
        outcome.warnings.length > 0 ? ` (warnings: ${outcome.warnings.join('; ')})` : '';
      summary.push(`${mark.padEnd(16)} ${scenario}${notes}`);
    }
    console.info(`conformance against ${server.title}:\n${summary.join('\n')}`);
    // `unexpected`: failed but not listed (fix the server). `stale`: listed but passes (unlist it).
    expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
  });

  it('passes the core protocol scenarios', () => {
    for (const scenario of [
      'server-initialize',
      'ping',
      'logging-set-level',
      'tools-list',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ]) {
      expect(outcomes.get(scenario)?.passed, scenario).toBe(true);
    }
  });
});
