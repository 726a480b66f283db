// The extractive summary as a pure function: bounds said (errors, files, calls read), open
// items from failures no later call fixed, one-line free text, and the same records giving the
// same hash whatever the clock says.
import { describe, expect, it } from 'vitest';

import type { Session, ToolCall } from './model.js';
import { summaryText } from './summary-text.js';
import { buildSummary, MAX_ERRORS, MAX_FILES, summaryHash, type SummaryInputs } from './summary.js';

const session = (over: Partial<Session> = {}): Session => ({
  id: 's',
  parentSessionId: null,
  status: 'active',
  agentType: null,
  agentProgram: null,
  modelId: null,
  repoId: null,
  repoPath: null,
  projectId: null,
  worktreeId: null,
  operatorId: null,
  machineId: null,
  delegated: false,
  title: null,
  data: {},
  provenance: {},
  startedAt: 0,
  updatedAt: 65_000,
  endedAt: null,
  counts: { toolCalls: 0, errors: 0, delegations: 0 },
  summaryId: null,
  ...over,
});

const call = (
  seq: number,
  toolName: string,
  error: string | null,
  files: string[] = [],
): ToolCall => ({
  id: `c${seq}`,
  sessionId: 's',
  seq,
  toolName,
  status: error === null ? 'ok' : 'error',
  args: {},
  result: null,
  error,
  durationMs: null,
  files,
  createdAt: seq,
});

const inputs = (calls: ToolCall[], over: Partial<Session> = {}): SummaryInputs => ({
  session: session({
    counts: {
      toolCalls: calls.length,
      errors: calls.filter((c) => c.status === 'error').length,
      delegations: 0,
    },
    ...over,
  }),
  toolCalls: calls,
  delegations: [],
  children: new Map(),
  observations: [],
  observationCount: 0,
});

describe('buildSummary', () => {
  it('opens an item for a tool whose last call failed, not for one a later call fixed', () => {
    const s = buildSummary(
      inputs([call(1, 'a', 'x'), call(2, 'a', null), call(3, 'b', null), call(4, 'b', 'y\nz')]),
    );
    expect(s.openItems).toEqual(['b failed (call 4): y — not retried successfully']);
    expect(s.errors.map((e) => [e.tool, e.error, e.count, e.firstSeq])).toEqual([
      ['a', 'x', 1, 1],
      ['b', 'y', 1, 4],
    ]);
  });

  it('bounds errors and files and says how many were left out', () => {
    const calls = Array.from({ length: MAX_ERRORS + 5 }, (_, i) =>
      call(
        i + 1,
        't',
        `error ${i}`,
        Array.from({ length: 5 }, (_, j) => `f${i}-${j}.ts`),
      ),
    );
    const s = buildSummary(inputs(calls));
    expect(s.errors).toHaveLength(MAX_ERRORS);
    expect(s.errorsOmitted).toBe(5);
    expect(s.files).toHaveLength(MAX_FILES);
    expect(s.filesOmitted).toBe(calls.length * 5 - MAX_FILES);
    const text = summaryText(s);
    expect(text).toContain('- … and 5 more distinct errors');
    expect(text).toContain(`- … and ${calls.length * 5 - MAX_FILES} more files`);
  });

  it('says when fewer calls were read than the session logged, and an open session so far', () => {
    const s = buildSummary({
      ...inputs([call(1, 't', null)]),
      session: session({ counts: { toolCalls: 9000, errors: 0, delegations: 0 } }),
    });
    expect(summaryText(s).split('\n').slice(0, 4)).toEqual([
      'Session s: Session s',
      'Status: active, open, 1m 5s so far (started 1970-01-01T00:00:00.000Z)',
      'Agent: unknown; repository: none',
      'Tools (9000 calls, 0 failed; the first 1 read):',
    ]);
  });

  it('puts free text on one line and hashes the same records the same way', () => {
    const a = buildSummary(inputs([], { title: 'one\n\ntwo', data: { goal: ' g \n h ' } }));
    expect([a.title, a.goal]).toEqual(['one two', 'g h']);
    const b = buildSummary(inputs([], { title: 'one\n\ntwo', data: { goal: ' g \n h ' } }));
    expect(summaryHash(a)).toBe(summaryHash(b));
    const c = buildSummary(inputs([], { title: 'one two!', data: { goal: 'g h' } }));
    expect(summaryHash(c)).not.toBe(summaryHash(a));
    expect(summaryText(buildSummary(inputs([])))).toContain('Tools (0 calls, 0 failed): none');
  });
});
