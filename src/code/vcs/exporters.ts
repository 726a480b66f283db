// Which files make a definition importable: its own file, the barrels above it that re-export
// it (`index.ts` with `export … from './x'`, a package `__init__.py`, a Rust `mod.rs`/`lib.rs`),
// and, for Go, Java and Kotlin, the files of the same package directory. Used to tell a real
// use (its file imports one of these) from a match by name alone.
import { importNames } from './import-resolve.js';
import type { ReferenceGraph } from './types.js';

/** How many directory levels above a definition a barrel is looked for. */
const BARREL_LEVELS = 4;

const BARRELS: [RegExp, string[]][] = [
  [/\.[cm]?[jt]sx?$/, ['index.ts', 'index.tsx', 'index.js', 'index.jsx', 'index.mjs']],
  [/\.pyi?$/, ['__init__.py']],
  [/\.rs$/, ['mod.rs', 'lib.rs']],
];

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Same package: Go, Java and Kotlin files of one directory see each other without imports. */
export function samePackage(a: string, b: string): boolean {
  const family = (p: string) =>
    /\.go$/.test(p) ? 'go' : /\.(?:java|kts?)$/.test(p) ? 'jvm' : null;
  const fa = family(a);
  return fa !== null && fa === family(b) && dirOf(a) === dirOf(b);
}

/**
 * `path` plus the barrels that re-export it, nearest first, found through the graph's imports
 * (a barrel counts when one of its imports names the file or a barrel already found).
 */
export async function exportersOf(graph: ReferenceGraph, path: string): Promise<string[]> {
  const names = BARRELS.find(([re]) => re.test(path))?.[1];
  const members = [path];
  if (names === undefined) return members;
  let dir = dirOf(path);
  for (let level = 0; level < BARREL_LEVELS; level++) {
    const candidates = names.map((n) => (dir === '' ? n : `${dir}/${n}`));
    const known = await graph.importsOf(candidates.filter((c) => !members.includes(c)));
    for (const [barrel, specs] of known) {
      if (specs.some((spec) => members.some((m) => importNames(barrel, spec, m)))) {
        members.push(barrel);
      }
    }
    if (dir === '') break;
    dir = dirOf(dir);
  }
  return members;
}
