// Fails when a change breaks the layering: façades → domains → store, one way only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from './helpers.js';

const SRC = join(ROOT, 'src');
const FACADES = new Set(['mcp', 'http', 'irc', 'cli', 'web', 'core']);
const DOMAINS = new Set(['auth', 'board', 'memory', 'embed', 'rooms', 'broker', 'backplane']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
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
        (DOMAINS.has(i.layer) || i.layer === 'store' || i.layer === 'shared') &&
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

  it('only src/store touches the SQLite driver', () => {
    const bad = imports.filter((i) => i.target === 'better-sqlite3' && i.layer !== 'store');
    expect(bad).toEqual([]);
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
