// The README tells the truth about the CLI: its Commands block lists every command of the table
// with every flag, and the backplane and context attach URLs it shows are the ones `cairn config
// --server backplane|context` writes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { COMMANDS } from '../../src/cli/command-table.js';
import { ROOT, tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block under `## Commands`. */
function commandsBlock(): string {
  const section = README.split('\n## Commands\n')[1] ?? '';
  return /```\n([^]*?)```/.exec(section)?.[1] ?? '';
}

describe('README', () => {
  let home: TempDir;
  beforeEach(() => {
    home = tempDir('cairn-readme-');
  });
  afterEach(() => home.cleanup());

  it('lists every command with every flag', () => {
    const lines = commandsBlock().split('\n');
    for (const spec of COMMANDS) {
      const name = `cairn ${spec.path.join(' ')}`;
      const at = lines.findIndex((l) => l === name || l.startsWith(`${name} `));
      expect(at, name).toBeGreaterThanOrEqual(0);
      const next = lines.findIndex((l, i) => i > at && l.startsWith('cairn '));
      const entry = lines.slice(at, next === -1 ? undefined : next).join('\n');
      for (const flag of Object.keys(spec.flags)) expect(entry, name).toContain(`--${flag}`);
    }
  });

  it('shows the context attach URL that cairn config --server context writes', async () => {
    const section = README.split('The context server')[1] ?? '';
    const shown = /"url": "([^"]+)"/.exec(section)?.[1];
    const run = await cairn(home.path, [
      'config',
      '--runtime',
      'claude-code',
      '--server',
      'context',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = /"url": "([^"]+)"/.exec(run.stdout)?.[1];
    expect(written).toBe('http://127.0.0.1:4870/api/mcp/context');
    expect(shown).toBe(written);
  });

  it('shows the backplane attach URL that cairn config --server backplane writes', async () => {
    const section = README.split('The backplane server')[1] ?? '';
    const shown = /"url": "([^"]+)"/.exec(section)?.[1];
    const run = await cairn(home.path, [
      'config',
      '--runtime',
      'claude-code',
      '--server',
      'backplane',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = /"url": "([^"]+)"/.exec(run.stdout)?.[1];
    expect(written).toBe('http://127.0.0.1:4870/api/mcp/backplane');
    expect(shown).toBe(written);
  });
});
