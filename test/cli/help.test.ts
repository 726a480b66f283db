// The CLI's help tells the truth: `cairn --help` lists every command and every flag of the
// command table, each command's own --help lists its flags, and a flag the table lacks (for
// that command) is refused with a message instead of being ignored.
import { CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { COMMANDS, GROUPS } from '../../src/cli/command-table.js';
import { flagUsage } from '../../src/cli/flags.js';
import { buildProgram } from '../../src/cli/program.js';
import { MCP_SERVER_NAMES } from '../../src/mcp/index.js';
import { tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

/** Parses `argv` in-process; returns what was written and the commander exit code. */
async function parseInProcess(argv: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const io = { writeOut: (t: string) => void (out += t), writeErr: (t: string) => void (err += t) };
  try {
    await buildProgram(COMMANDS, GROUPS, '0.0.0-test', io).parseAsync(argv, { from: 'user' });
    return { out, err, code: 0 };
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    return { out, err, code: e.exitCode };
  }
}

const usageLine = (path: readonly string[]): string => `cairn ${path.join(' ')}`;

describe('cairn --help', () => {
  let home: TempDir;
  beforeEach(() => {
    home = tempDir('cairn-help-');
  });
  afterEach(() => home.cleanup());

  it('lists every command and every flag of the table, from the real bin', async () => {
    const run = await cairn(home.path, ['--help']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    for (const spec of COMMANDS) {
      const at = lines.findIndex((l) => l.trimStart().startsWith(usageLine(spec.path)));
      expect(at, usageLine(spec.path)).toBeGreaterThanOrEqual(0);
      // The flags follow their command, indented, before the next command line.
      const next = lines.findIndex((l, i) => i > at && /^ {2}cairn /.test(l));
      const block = lines.slice(at + 1, next).join('\n');
      for (const [name, flag] of Object.entries(spec.flags)) {
        expect(block, `${usageLine(spec.path)} ${flagUsage(name, flag)}`).toContain(
          flagUsage(name, flag),
        );
      }
    }
    // What the issue found missing.
    expect(run.stdout).toContain('cairn mcp memory');
    expect(run.stdout).toContain('--tenant ID');
    expect(run.stdout).toMatch(/cairn audit[^]*--step S[^]*--call ID/);
    for (const name of MCP_SERVER_NAMES) expect(run.stdout).toContain(`cairn mcp ${name}`);
    // No arguments at all prints the same help.
    expect((await cairn(home.path, [])).stdout).toBe(run.stdout);
  });

  it("lists each command's flags and arguments in its own --help", async () => {
    for (const spec of COMMANDS) {
      const help = await parseInProcess([...spec.path, '--help']);
      expect(help.code, usageLine(spec.path)).toBe(0);
      expect(help.out).toContain(`Usage: ${usageLine(spec.path)}`);
      expect(help.out).toContain(spec.summary.slice(0, 30));
      for (const arg of spec.args) expect(help.out).toContain(`<${arg.name}>`);
      for (const name of Object.keys(spec.flags)) expect(help.out).toContain(`--${name}`);
    }
  });

  it('refuses a flag the table lacks for that command, for every command', async () => {
    for (const spec of COMMANDS) {
      const args = spec.args.map(() => 'x');
      const run = await parseInProcess([...spec.path, ...args, '--no-such-flag']);
      expect(run.code, usageLine(spec.path)).not.toBe(0);
      expect(run.err).toContain("cairn: unknown option '--no-such-flag'");
    }
    // Another command's flag is not silently taken either.
    const stray = await parseInProcess(['mcp', 'tasks', '--room-team', 't1']);
    expect(stray.err).toContain("unknown option '--room-team'");
  });

  it('a stray flag or argument exits 2 with cairn: <what> on stderr and nothing on stdout', async () => {
    const runs = await Promise.all([
      cairn(home.path, ['approvals', 'list', '--bogus']),
      cairn(home.path, ['mcp', 'tools', '--team', 't1']),
      cairn(home.path, ['agents', 'list', 'extra']),
      cairn(home.path, ['no-such-command']),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^cairn: /);
    }
    expect(runs[0]?.stderr).toContain("unknown option '--bogus'");
    expect(runs[1]?.stderr).toContain("unknown option '--team'");
    expect(runs[2]?.stderr).toContain('too many arguments');
    expect(runs[3]?.stderr).toContain("unknown command 'no-such-command'");
  });

  it("cairn mcp memory --help lists the memory flags, not another server's", async () => {
    const help = await parseInProcess(['mcp', 'memory', '--help']);
    expect(help.out).toContain('--tenant <ID>');
    expect(help.out).not.toContain('--room-team');
  });
});
