// Fails when a change breaks the layering: façades → domains → store, one way only, with the
// pure search substrate (src/search) below domains and store alike; and when
// the dashboard (web/) takes from src/ anything but the domains' pure model files (values from
// the board's model only, types from any model, always as `import type`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from './helpers.js';

const SRC = join(ROOT, 'src');
const WEB = join(ROOT, 'web/src');
const FACADES = new Set(['mcp', 'http', 'irc', 'cli', 'web', 'core']);
const DOMAINS = new Set([
  'auth',
  'board',
  'memory',
  'embed',
  'rooms',
  'broker',
  'backplane',
  'code',
  'activity',
  'vault',
  'entity',
  'graph',
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.tsx?$/.test(path) ? [path] : [];
  });
}

interface Import {
  file: string;
  layer: string;
  target: string;
  targetLayer: string | undefined;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const layer = relative(SRC, file).split('/')[0] ?? '';
  const found: Import[] = [];
  for (const m of text.matchAll(
    /(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const target = m[1] ?? m[2] ?? '';
    let targetLayer: string | undefined;
    if (target.startsWith('.')) {
      const abs = resolve(file, '..', target);
      targetLayer = relative(SRC, abs).split('/')[0];
    }
    found.push({ file: relative(ROOT, file), layer, target, targetLayer });
  }
  return found;
}

const files = walk(SRC).filter((f) => !f.endsWith('.test.ts'));
const imports = files.flatMap(importsOf);

describe('architecture', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(imports.length).toBeGreaterThan(20);
  });

  it('domain modules and the store never import a façade, the core or the MCP SDK', () => {
    const bad = imports.filter(
      (i) =>
        (DOMAINS.has(i.layer) || ['store', 'search', 'shared'].includes(i.layer)) &&
        ((i.targetLayer !== undefined && FACADES.has(i.targetLayer)) ||
          i.target.startsWith('@modelcontextprotocol/sdk')),
    );
    expect(bad).toEqual([]);
  });

  it('the store never imports a domain module', () => {
    const bad = imports.filter(
      (i) => i.layer === 'store' && i.targetLayer !== undefined && DOMAINS.has(i.targetLayer),
    );
    expect(bad).toEqual([]);
  });

  it('src/search imports nothing of the project but src/shared, and no database package', () => {
    const searchImports = imports.filter((i) => i.layer === 'search');
    expect(searchImports.length).toBeGreaterThan(5);
    const bad = searchImports.filter(
      (i) =>
        (i.targetLayer !== undefined && i.targetLayer !== 'search' && i.targetLayer !== 'shared') ||
        /^(better-sqlite3|sqlite-vec|pg)$/.test(i.target),
    );
    expect(bad).toEqual([]);
  });

  it('the store and the domains use src/search (one ranking engine)', () => {
    const users = new Set(
      imports.filter((i) => i.targetLayer === 'search' && i.layer !== 'search').map((i) => i.layer),
    );
    expect(users.has('store')).toBe(true);
    expect(users.has('memory')).toBe(true);
  });

  it('only src/store touches a database driver (SQLite or PostgreSQL)', () => {
    const drivers = new Set(['better-sqlite3', 'sqlite-vec', 'pg']);
    const bad = imports.filter((i) => drivers.has(i.target) && i.layer !== 'store');
    expect(bad).toEqual([]);
    expect(imports.some((i) => i.target === 'pg' && i.layer === 'store')).toBe(true);
  });

  it('each source folder has an index.ts without export *', () => {
    const folders = [...new Set(files.map((f) => relative(SRC, f).split('/')[0] ?? ''))];
    for (const folder of folders) {
      const index = join(SRC, folder, 'index.ts');
      expect(statSync(index, { throwIfNoEntry: false })?.isFile(), `${folder}/index.ts`).toBe(true);
      expect(readFileSync(index, 'utf8')).not.toMatch(/export \*/);
    }
  });

  it('cross-folder imports go through the folder index', () => {
    const bad = imports.filter(
      (i) =>
        i.targetLayer !== undefined &&
        i.targetLayer !== i.layer &&
        !/\/index\.js$/.test(i.target) &&
        i.targetLayer !== 'shared',
    );
    expect(bad).toEqual([]);
  });
});

/** One import or re-export of a web/ file that reaches into src/. */
interface WebImport {
  file: string;
  /** The module in src/, e.g. `board/model.ts`. */
  module: string;
  /** `import type …` / `export type … from` (erased whole by the build). */
  typeOnly: boolean;
}

const MODULE_REFS =
  /(?:^|\n)\s*(?:import|export)(\s+type\b)?[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module `file` imports or re-exports from: its specifier, and whether type-only. */
function refsOf(file: string): Array<{ target: string; typeOnly: boolean }> {
  return [...readFileSync(file, 'utf8').matchAll(MODULE_REFS)].map((m) => ({
    target: m[2] ?? m[3] ?? m[4] ?? '',
    typeOnly: m[1] !== undefined,
  }));
}

/** The module under src/ (e.g. `board/model.ts`) a relative specifier of `file` names, if any. */
function srcModule(file: string, target: string): string | undefined {
  if (!target.startsWith('.')) return undefined;
  const rel = relative(SRC, resolve(file, '..', target));
  return rel.startsWith('..') ? undefined : rel.replace(/\.js$/, '.ts');
}

/** Every reference of `file` to a module under src/. */
function srcRefsOf(file: string): WebImport[] {
  return refsOf(file).flatMap(({ target, typeOnly }) => {
    const module = srcModule(file, target);
    return module === undefined ? [] : [{ file: relative(ROOT, file), module, typeOnly }];
  });
}

/** A domain's model file: `<domain>/model.ts`, or one of its parts' (`activity/sessions/model.ts`). */
const isDomainModel = (module: string): boolean => {
  const [folder, ...rest] = module.split('/');
  return DOMAINS.has(folder ?? '') && rest.at(-1) === 'model.ts' && rest.length <= 2;
};

describe('architecture of web/', () => {
  const webFiles = walk(WEB);
  const webRefs = webFiles.flatMap(srcRefsOf);

  it('has dashboard files that use the board model and domain types', () => {
    expect(webFiles.length).toBeGreaterThan(10);
    expect(webRefs.some((r) => r.module === 'board/model.ts' && !r.typeOnly)).toBe(true);
    expect(webRefs.some((r) => r.module !== 'board/model.ts' && r.typeOnly)).toBe(true);
  });

  it('takes values from src/board/model.ts only, and types only from domain models', () => {
    const bad = webRefs.filter(
      (r) => r.module !== 'board/model.ts' && !(r.typeOnly && isDomainModel(r.module)),
    );
    expect(bad).toEqual([]);
  });

  it('the models it reaches import nothing but other models, type-only', () => {
    const seen = new Set<string>();
    const queue = [...new Set(webRefs.map((r) => r.module))];
    const bad: WebImport[] = [];
    for (let module = queue.pop(); module !== undefined; module = queue.pop()) {
      if (seen.has(module)) continue;
      seen.add(module);
      const refs = srcRefsOf(join(SRC, module));
      // A package or a file outside src/ (node:*, zod, …) would ride into the browser build.
      for (const { target } of refsOf(join(SRC, module))) {
        if (srcModule(join(SRC, module), target) === undefined) {
          bad.push({ file: `src/${module}`, module: target, typeOnly: false });
        }
      }
      bad.push(...refs.filter((r) => !(r.typeOnly && isDomainModel(r.module))));
      queue.push(...refs.map((r) => r.module));
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(bad).toEqual([]);
  });
});
