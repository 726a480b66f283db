// The test run's dist/: every src module transpiled one by one with TypeScript's own emitter
// (the project compiles with isolatedModules and verbatimModuleSyntax, so a file's output does
// not depend on the others). Type errors are `npm run typecheck`'s job; this takes seconds
// where `tsc -p tsconfig.build.json` takes a minute on a busy 2-core machine. `npm run build`
// (and `npm start`) still build with tsc.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import ts from 'typescript';

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  esModuleInterop: true,
  sourceMap: true,
};

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
      yield path;
  }
}

/** Transpiles `root`/src into `root`/dist (only files whose source is newer); returns a count. */
export function buildDist(root: string): number {
  let written = 0;
  for (const src of sources(join(root, 'src'))) {
    const rel = relative(join(root, 'src'), src).replace(/\.ts$/, '.js');
    const out = join(root, 'dist', rel);
    try {
      if (statSync(out).mtimeMs >= statSync(src).mtimeMs) continue;
    } catch {
      // Not built yet.
    }
    const result = ts.transpileModule(readFileSync(src, 'utf8'), {
      compilerOptions: OPTIONS,
      fileName: src,
    });
    mkdirSync(dirname(out), { recursive: true });
    const map = `${out}.map`;
    const mapRef = `//# sourceMappingURL=${rel.split('/').pop() ?? ''}.map`;
    writeFileSync(out, result.outputText.replace(/\/\/# sourceMappingURL=.*$/m, mapRef));
    if (result.sourceMapText !== undefined) {
      // As tsc writes it: the source named relative to the output's folder.
      const parsed = JSON.parse(result.sourceMapText) as { sources: string[] };
      parsed.sources = [relative(dirname(out), src)];
      writeFileSync(map, JSON.stringify(parsed));
    }
    written += 1;
  }
  return written;
}
