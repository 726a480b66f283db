// The Beads reader on its own: the stand-in bd's exact-args check, a timeout and oversize
// output reported as such, bd's JSON validated, and an issue rendered with and without a lease.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { BEADS_FIXTURE, fakeBd, type FakeBd } from '../../test/vault/beads.js';
import { BeadsError, findBd, parseIssues, renderIssue, runBd } from './beads.js';

let bd: FakeBd;
beforeEach(() => {
  bd = fakeBd();
});
afterEach(() => bd.cleanup());

const env = (): NodeJS.ProcessEnv => ({ PATH: bd.path });

describe('runBd', () => {
  it('finds bd on PATH and prints the fixture when called exactly as the spec says', async () => {
    expect(await findBd(bd.path)).toMatch(/\/bin\/bd$/);
    expect(await findBd('/nonexistent-dir')).toBeUndefined();
    const out = await runBd({ cwd: bd.project, env: env() });
    expect(parseIssues(out)).toHaveLength(6);
  });

  it('reports a timeout and oversize output honestly', async () => {
    bd.mode('slow');
    await expect(runBd({ cwd: bd.project, env: env(), timeoutMs: 300 })).rejects.toThrow(
      'bd timed out after 300 ms',
    );
    bd.mode('issues');
    await expect(runBd({ cwd: bd.project, env: env(), maxBytes: 64 })).rejects.toThrow(
      'bd printed more than 64 bytes; output refused',
    );
  });

  it('the stand-in refuses another cwd, other args, metrics on (so a wrong call is noticed)', async () => {
    await expect(runBd({ cwd: '/', env: env() })).rejects.toThrow(/exit 97.*wrong cwd/);
    const script = (await findBd(bd.path)) ?? '';
    const run = (args: string[], extra: NodeJS.ProcessEnv) =>
      new Promise<string>((done) => {
        execFile(script, args, { cwd: bd.project, env: { ...env(), ...extra } }, (err, _o, e) =>
          done(err === null ? 'ok' : e),
        );
      });
    expect(await run(['list', '--json'], { BD_DISABLE_METRICS: '1' })).toContain('unexpected args');
    expect(await run(['list', '--json', '--limit', '0'], {})).toContain('metrics not disabled');
    expect(await run(['list', '--json', '--limit', '0'], { BD_DISABLE_METRICS: '1' })).toBe('ok');
  });
});

describe('parseIssues and renderIssue', () => {
  it('refuses non-lists and issues without a title, tolerates absent fields', () => {
    expect(() => parseIssues('{"id":"a"}')).toThrow(BeadsError);
    expect(() => parseIssues('[{"id":"a","title":7}]')).toThrow('[0.title]');
    expect(parseIssues('')).toEqual([]);
    expect(parseIssues('[{"id":"a","title":"T","quality_score":3}]')[0]?.id).toBe('a');
  });

  it('renders the fields and the claim lease only when lease fields are present', () => {
    const [leased, plain] = parseIssues(readFileSync(BEADS_FIXTURE, 'utf8'));
    if (leased === undefined || plain === undefined) throw new Error('fixture too short');
    const text = renderIssue(leased);
    expect(text).toMatch(/^---\ntype: "progress"\ntitle: "Vault diary tools"/);
    expect(text).toContain('**Type**: feature');
    expect(text).toContain('**Claim Lease**: codex, claimed 2026-12-06T22:00:00Z');
    expect(renderIssue(plain)).not.toContain('Claim Lease');
    expect(renderIssue({ id: 'z-1', title: 'Bare' })).toBe(
      '---\ntype: "progress"\ntitle: "Bare"\nbeads_id: "z-1"\nstatus: "unknown"\n---\n# Bare\n\n**ID**: z-1\n',
    );
  });
});
