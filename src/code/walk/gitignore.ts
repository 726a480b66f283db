// Nested .gitignore files (and .git/info/exclude) applied the way git does, each relative to
// its own directory, deeper files overriding shallower ones. Used where git's listing is not
// (no work tree, `git: 'never'`, or inside a followed symlink). Reads only ignore files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import ignore, { type Ignore } from 'ignore';

interface Level {
  /** Repo-relative directory of the ignore file ('' for the root). */
  base: string;
  ig: Ignore;
}

async function readRules(file: string): Promise<Ignore | null> {
  try {
    return ignore({ ignorecase: false }).add(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/** An immutable stack of ignore levels, one per directory that has a .gitignore. */
export class IgnoreStack {
  private constructor(private readonly levels: readonly Level[]) {}

  /** The stack for a root: `.git/info/exclude` (lowest precedence) when present. */
  static async forRoot(rootAbs: string): Promise<IgnoreStack> {
    const exclude = await readRules(join(rootAbs, '.git', 'info', 'exclude'));
    return new IgnoreStack(exclude === null ? [] : [{ base: '', ig: exclude }]);
  }

  /** The stack inside `dirAbs` (repo-relative `dirRel`), adding its .gitignore if any. */
  async enter(dirAbs: string, dirRel: string): Promise<IgnoreStack> {
    const ig = await readRules(join(dirAbs, '.gitignore'));
    return ig === null ? this : new IgnoreStack([...this.levels, { base: dirRel, ig }]);
  }

  /** True when the deepest rule that speaks about `rel` ignores it. */
  ignores(rel: string, isDir: boolean): boolean {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i] as Level;
      const sub = level.base === '' ? rel : rel.slice(level.base.length + 1);
      const verdict = level.ig.test(isDir ? sub + '/' : sub);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
