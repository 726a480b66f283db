// A stand-in `bd` for beads_sync tests: a shell script in a temp folder put first on PATH that
// refuses (exit 97) unless called as `bd list --json --limit 0` with BD_DISABLE_METRICS=1 and
// the project as cwd, then plays one recorded behaviour (print a fixture, fail, print
// garbage, hang).
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tempDir, type TempDir } from '../helpers.js';

export const BEADS_FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'beads-fixture.json');

export interface FakeBd {
  /** The project folder (holds .beads/). */
  project: string;
  /** Prints this JSON file next time (a copy, so a test may rewrite it). */
  issuesFile: string;
  /** A PATH value with the script's folder first (for a spawned server's environment). */
  path: string;
  /** What the script does: print the issues file, exit 2 with stderr, print garbage. */
  mode(m: 'issues' | 'fail' | 'garbage' | 'slow'): void;
  /** Puts the script's folder first on PATH (or PATH without any bd); returns the undo. */
  onPath(present?: boolean): () => void;
  cleanup(): void;
}

export function fakeBd(): FakeBd {
  const dir: TempDir = tempDir('cairn-fake-bd-');
  const bin = join(dir.path, 'bin');
  const project = join(dir.path, 'project');
  mkdirSync(bin);
  mkdirSync(join(project, '.beads'), { recursive: true });
  const issuesFile = join(dir.path, 'issues.json');
  copyFileSync(BEADS_FIXTURE, issuesFile);
  const modeFile = join(dir.path, 'mode');
  writeFileSync(modeFile, 'issues');
  const script = [
    '#!/bin/sh',
    'if [ "$#" -ne 4 ] || [ "$1" != list ] || [ "$2" != --json ] || [ "$3" != --limit ] || [ "$4" != 0 ]; then',
    '  echo "fake bd: unexpected args: $*" >&2; exit 97; fi',
    'if [ "$BD_DISABLE_METRICS" != 1 ]; then echo "fake bd: metrics not disabled" >&2; exit 97; fi',
    `if [ "$(pwd -P)" != "$(cd '${project}' && pwd -P)" ]; then echo "fake bd: wrong cwd" >&2; exit 97; fi`,
    `case "$(cat '${modeFile}')" in`,
    `  issues) cat '${issuesFile}' ;;`,
    '  fail) echo "Error: no beads database found" >&2; exit 2 ;;',
    '  garbage) echo "this is not json {" ;;',
    '  slow) exec sleep 20 ;;',
    'esac',
  ].join('\n');
  writeFileSync(join(bin, 'bd'), `${script}\n`);
  chmodSync(join(bin, 'bd'), 0o755);
  const path = `${bin}:/usr/bin:/bin`;
  return {
    project,
    issuesFile,
    path,
    mode: (m) => writeFileSync(modeFile, m),
    onPath(present = true) {
      const before = process.env.PATH;
      process.env.PATH = present ? path : dir.path;
      return () => {
        process.env.PATH = before;
      };
    },
    cleanup: () => dir.cleanup(),
  };
}
