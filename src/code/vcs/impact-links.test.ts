// How analyze_impact tells a use from a namesake: through a barrel (TS index.ts, a Python
// package __init__.py), within a Go package directory, or not at all (an unlinked call is kept
// and not followed; an unlinked identifier is dropped).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { analyzeImpact } from './impact.js';
import { createTestRepo, type TestRepo } from './test-repo.js';

let repo: TestRepo;

beforeAll(() => {
  repo = createTestRepo('cairn-vcs-links-');
  repo.write('lib/core/calc.ts', 'export function calc(x: number): number {\n  return x;\n}\n');
  repo.write('lib/core/index.ts', "export { calc } from './calc.js';\n");
  repo.write('lib/index.ts', "export { calc } from './core/index.js';\n");
  repo.write(
    'app/main.ts',
    "import { calc } from '../lib/index.js';\n\nexport function run(): number {\n  return calc(1);\n}\n",
  );
  repo.write(
    'app/caller.ts',
    "import { run } from './main.js';\n\nexport const go = () => run();\n",
  );
  repo.write(
    'app/namesake.ts',
    'export function other(calc: number): number {\n  return calc;\n}\n',
  );
  repo.write(
    'app/loose.ts',
    'export function loose(o: { calc(): number }) {\n  return o.calc();\n}\n',
  );
  repo.write('pkg/__init__.py', 'from .impl import work\n');
  repo.write('pkg/impl.py', 'def work():\n    return 1\n');
  repo.write('use.py', 'from pkg import work\n\n\ndef job():\n    return work()\n');
  repo.write('svc/a.go', 'package svc\n\nfunc helper() int {\n\treturn 1\n}\n');
  repo.write('svc/b.go', 'package svc\n\nfunc Serve() int {\n\treturn helper()\n}\n');
  repo.commit('base');
  repo.git('checkout', '-qb', 'change');
  repo.write('lib/core/calc.ts', 'export function calc(x: number): number {\n  return x * 2;\n}\n');
  repo.write('pkg/impl.py', 'def work():\n    return 2\n');
  repo.write('svc/a.go', 'package svc\n\nfunc helper() int {\n\treturn 2\n}\n');
  repo.commit('change');
});

afterAll(() => repo.cleanup());

describe('analyzeImpact links', () => {
  it('links uses through barrels and packages, keeps unlinked calls unfollowed, drops namesakes', async () => {
    const result = await analyzeImpact({
      repoPath: repo.dir,
      baseBranch: 'main',
      targetBranch: 'change',
    });
    const rows = result.dependents.map((d) => [d.path, d.symbol, d.depth, d.via, d.linked]);
    expect(rows).toEqual(
      [
        ['app/loose.ts', 'loose', 1, 'call', false],
        ['app/main.ts', 'run', 1, 'call', true],
        ['lib/core/index.ts', null, 1, 'import', true],
        ['svc/b.go', 'Serve', 1, 'call', true],
        ['use.py', 'job', 1, 'call', true],
        ['app/caller.ts', 'go', 2, 'call', true],
        ['pkg/__init__.py', null, 1, 'import', true],
      ].sort((a, b) => Number(a[2]) - Number(b[2]) || String(a[0]).localeCompare(String(b[0]))),
    );
    expect(result.dependents.some((d) => d.path === 'app/namesake.ts')).toBe(false);
  });
});
