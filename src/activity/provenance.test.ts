import { describe, expect, it } from 'vitest';

import { DomainError } from '../shared/index.js';
import type { Provenance } from './fields.js';
import {
  ProvenanceError,
  ProvenanceInvalidError,
  ProvenanceMissingError,
  requireProvenance,
  resolveProvenance,
} from './provenance.js';

const BASE: Provenance = {
  session_id: 'cairn-stdio-box1-4242-1767225600',
  repo_path: '/work/repo',
  repo_id: '0123456789abcdef',
  project_id: 'owner/repo',
  worktree_id: 'main',
  operator_id: 'ada',
  machine_id: 'box1',
  agent_program: 'cairn-stdio',
  model_id: 'gpt-5',
  delegated: false,
  timestamp: 1_767_225_600,
};
const CLOCK = (): number => 1_767_225_999_000;

/** The error requireProvenance throws, or a failure when it does not throw. */
function refusal(run: () => unknown): ProvenanceMissingError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ProvenanceMissingError);
    return err as ProvenanceMissingError;
  }
  throw new Error('expected a ProvenanceMissingError');
}

function without(...fields: (keyof Provenance)[]): Partial<Provenance> {
  const copy: Partial<Provenance> = { ...BASE };
  for (const f of fields) delete copy[f];
  return copy;
}

describe('requireProvenance', () => {
  it('passes a complete record through for each family', () => {
    for (const tool of ['index', 'search', 'memory'] as const) {
      expect(requireProvenance(tool, BASE)).toBe(BASE);
    }
  });

  it("gives the spec's message verbatim, fields in the table's order", () => {
    const err = refusal(() =>
      requireProvenance('index', without('project_id', 'session_id'), { also: ['project_id'] }),
    );
    expect(err.message).toBe("Missing execution provenance for 'index': session_id, project_id");
    expect(err.code).toBe('provenance_missing');
    expect(err.tool).toBe('index');
    expect(err.missing).toEqual(['session_id', 'project_id']);
    expect(err).toBeInstanceOf(ProvenanceError);
    expect(err).toBeInstanceOf(DomainError);
  });

  it('names every model variable when model_id is missing', () => {
    const err = refusal(() => requireProvenance('search', without('model_id')));
    expect(err.message).toBe(
      "Missing execution provenance for 'search': model_id. model_id could not be " +
        'auto-discovered. Set one of: OPENAI_MODEL, ANTHROPIC_MODEL, CLAUDE_MODEL, ' +
        'GEMINI_MODEL, OLLAMA_MODEL, AZURE_OPENAI_MODEL, COHERE_MODEL, MISTRAL_MODEL. ' +
        'Or set CAIRN_MODEL_ID explicitly.',
    );
  });

  it('lists operator_id and machine_id when $USER and the host name are missing', () => {
    const err = refusal(() => requireProvenance('memory', without('machine_id', 'operator_id')));
    expect(err.message).toBe("Missing execution provenance for 'memory': operator_id, machine_id");
  });

  it('counts blank strings as missing', () => {
    const err = refusal(() => requireProvenance('index', { ...BASE, operator_id: '  ' }));
    expect(err.missing).toEqual(['operator_id']);
  });

  it('does not need project_id or repo_id while repo_path is known', () => {
    expect(() => requireProvenance('index', without('project_id', 'repo_id'))).not.toThrow();
  });

  it('accepts repo_id in place of repo_path, and names both when neither is known', () => {
    expect(() => requireProvenance('index', without('repo_path'))).not.toThrow();
    const err = refusal(() => requireProvenance('index', without('repo_path', 'repo_id')));
    expect(err.message).toBe("Missing execution provenance for 'index': repo_path, repo_id");
  });

  it('refuses delegated without parent_session_id, and says why', () => {
    const err = refusal(() => requireProvenance('index', { ...BASE, delegated: true }));
    expect(err.message).toBe(
      "Missing execution provenance for 'index': parent_session_id. " +
        'delegated is true, so parent_session_id is required.',
    );
    const ok = { ...BASE, delegated: true, parent_session_id: 'parent-1' };
    expect(requireProvenance('index', ok)).toBe(ok);
  });
});

describe('resolveProvenance', () => {
  it('keeps the boot record without _meta, with the request timestamp', () => {
    const p = resolveProvenance(BASE, undefined, { clock: CLOCK });
    expect(p).toEqual({ ...BASE, timestamp: 1_767_225_999 });
    expect(resolveProvenance(BASE, null, { clock: CLOCK })).toEqual(p);
  });

  it('lets _meta override any field and ignores keys that are not provenance', () => {
    const meta = {
      session_id: 'abc',
      repo_path: '/elsewhere',
      repo_id: 'r1',
      project_id: 'o/p',
      worktree_id: 'wt',
      operator_id: 'bob',
      machine_id: 'm2',
      agent_program: 'cursor',
      model_id: 'claude-x',
      timestamp: 42,
      progressToken: 7,
    };
    const p = resolveProvenance(BASE, meta, { clock: CLOCK, clientName: 'ignored-client' });
    const { progressToken: _ignored, ...fields } = meta;
    expect(p).toEqual({ ...fields, delegated: false });
  });

  it('takes agent_program from the client name unless _meta names one', () => {
    expect(resolveProvenance(BASE, {}, { clientName: 'claude-code' }).agent_program).toBe(
      'claude-code',
    );
    expect(resolveProvenance(BASE, {}, { clientName: 'bad\u0007' }).agent_program).toBe(
      'cairn-stdio',
    );
  });

  it('infers delegated from parent_session_id, and refuses a contradiction', () => {
    const p = resolveProvenance(BASE, { parent_session_id: 'parent-1' });
    expect(p.delegated).toBe(true);
    expect(p.parent_session_id).toBe('parent-1');
    const q = resolveProvenance(BASE, { delegated: true });
    expect(() => requireProvenance('index', q)).toThrow(/parent_session_id/);
    expect(() => resolveProvenance(BASE, { delegated: false, parent_session_id: 'p' })).toThrow(
      'Invalid execution provenance: _meta.delegated is false but parent_session_id is set',
    );
  });

  it('trims surrounding whitespace from a _meta string', () => {
    expect(resolveProvenance(BASE, { session_id: '  abc ' }).session_id).toBe('abc');
  });

  const HOSTILE: [string, unknown, string][] = [
    ['session_id', 42, '_meta.session_id must be a string (got number)'],
    ['model_id', null, '_meta.model_id must be a string (got null)'],
    ['operator_id', ['a'], '_meta.operator_id must be a string (got array)'],
    ['project_id', { a: 1 }, '_meta.project_id must be a string (got object)'],
    ['session_id', '', '_meta.session_id must not be empty'],
    ['session_id', 'x'.repeat(257), '_meta.session_id must be at most 256 characters (got 257)'],
    ['repo_path', '/'.repeat(4097), '_meta.repo_path must be at most 4096 characters (got 4097)'],
    ['model_id', 'gpt\n5', '_meta.model_id must not contain control characters'],
    ['machine_id', 'box\u0000', '_meta.machine_id must not contain control characters'],
    ['agent_program', 'a\u009bb', '_meta.agent_program must not contain control characters'],
    ['session_id', 'ab\u202ecd', '_meta.session_id must not contain invisible characters'],
    ['delegated', 'true', '_meta.delegated must be a boolean (got string)'],
    ['timestamp', 1.5, '_meta.timestamp must be a non-negative integer (Unix epoch seconds)'],
    ['timestamp', -1, '_meta.timestamp must be a non-negative integer (Unix epoch seconds)'],
    ['timestamp', '1', '_meta.timestamp must be a non-negative integer (Unix epoch seconds)'],
  ];

  it.each(HOSTILE)('refuses %s = %j with a clear error', (field, value, text) => {
    let caught: unknown;
    try {
      resolveProvenance(BASE, { [field]: value });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProvenanceInvalidError);
    expect((caught as ProvenanceInvalidError).message).toBe(
      `Invalid execution provenance: ${text}`,
    );
    expect((caught as ProvenanceInvalidError).field).toBe(`_meta.${field}`);
    expect((caught as ProvenanceInvalidError).code).toBe('provenance_invalid');
  });

  it('refuses a _meta that is not an object', () => {
    for (const meta of ['abc', 3, [1], true]) {
      expect(() => resolveProvenance(BASE, meta), String(meta)).toThrow(ProvenanceInvalidError);
    }
    expect(() => resolveProvenance(BASE, [1])).toThrow(
      'Invalid execution provenance: _meta must be an object (got array)',
    );
  });
});
