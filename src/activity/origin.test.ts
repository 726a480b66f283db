import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { originIdentity } from './origin.js';

const SAME_REPO = [
  'git@github.com:Owner/Repo.git',
  'git@github.com:owner/repo',
  'ssh://git@github.com/owner/repo.git',
  'ssh://git@github.com:22/owner/repo.git/',
  'git+ssh://git@github.com/owner/repo',
  'https://github.com/owner/repo',
  'https://github.com/owner/repo.git',
  'https://user:s3cret@GitHub.com/Owner/Repo.git/',
  'http://github.com/owner/repo?x=1#frag',
  'git://github.com/owner/repo.git',
  '  https://github.com/owner/repo\n',
];

describe('originIdentity', () => {
  it('gives ssh, scp-like and https forms of one repository the same key and repo_id', () => {
    const ids = SAME_REPO.map((url) => originIdentity(url));
    for (const [i, id] of ids.entries()) {
      expect(id?.key, SAME_REPO[i]).toBe('github.com/owner/repo');
    }
    const expected = createHash('sha256').update('github.com/owner/repo').digest('hex');
    expect(new Set(ids.map((id) => id?.repo_id))).toEqual(new Set([expected.slice(0, 16)]));
  });

  it('keeps owner/repo as written for project_id, nested groups included', () => {
    expect(originIdentity('git@github.com:Owner/Repo.git')?.project_id).toBe('Owner/Repo');
    expect(originIdentity('https://gitlab.com/group/sub/app.git')?.project_id).toBe(
      'group/sub/app',
    );
    expect(originIdentity('ssh://git@host.example/~alice/tool')?.project_id).toBe('alice/tool');
  });

  it('tells different repositories and hosts apart', () => {
    const a = originIdentity('git@github.com:owner/repo.git')?.repo_id;
    expect(originIdentity('git@github.com:owner/other.git')?.repo_id).not.toBe(a);
    expect(originIdentity('git@gitlab.com:owner/repo.git')?.repo_id).not.toBe(a);
  });

  it('never keeps credentials in the key', () => {
    const id = originIdentity('https://user:s3cret@github.com/owner/repo.git');
    expect(JSON.stringify(id)).not.toContain('s3cret');
    expect(JSON.stringify(id)).not.toContain('user');
  });

  it('treats a local path and its file:// URL as one repository, case kept', () => {
    const a = originIdentity('/srv/git/Team/App.git');
    expect(a?.key).toBe('/srv/git/Team/App');
    expect(a?.project_id).toBe('Team/App');
    expect(originIdentity('file:///srv/git/Team/App.git/')?.repo_id).toBe(a?.repo_id);
    expect(originIdentity('/srv/git/team/app.git')?.repo_id).not.toBe(a?.repo_id);
  });

  it('refuses text that is not a clone URL', () => {
    for (const bad of [
      '',
      '   ',
      'not a url',
      'relative/path',
      'C:\\repo',
      'https://',
      'git@github.com:',
    ]) {
      expect(originIdentity(bad), bad).toBeUndefined();
    }
  });
});
