// Import specifiers as chunkFile records them, matched to repository files per language family.
import { describe, expect, it } from 'vitest';

import { importHints, importNames } from './import-resolve.js';

describe('importNames', () => {
  it.each([
    // [importing file, specifier, target, expected]
    ['src/a.ts', './b', 'src/b.ts', true],
    ['src/a.ts', './b.js', 'src/b.ts', true],
    ['src/x/a.ts', '../b', 'src/b.ts', true],
    ['src/a.ts', './util', 'src/util/index.ts', true],
    ['src/a.ts', './util', 'src/util/helpers.ts', false],
    ['src/a.ts', './bb', 'src/b.ts', false],
    ['src/a.ts', '../../x', 'x.ts', false],
    ['pkg/a.py', '.b', 'pkg/b.py', true],
    ['pkg/sub/a.py', '..b', 'pkg/b.py', true],
    ['pkg/a.py', '.', 'pkg/__init__.py', true],
    ['app.py', 'pkg.b', 'pkg/b.py', true],
    ['app.py', 'pkg.b', 'src/pkg/b.py', true],
    ['app.py', 'pkg.bc', 'pkg/b.py', false],
    ['Main.java', 'com.x.Shape', 'src/main/java/com/x/Shape.java', true],
    ['Main.java', 'com.x.*', 'src/main/java/com/x/Other.java', false],
    ['main.go', 'example.com/proj/pkg/util', 'pkg/util/strings.go', true],
    ['main.go', 'example.com/proj/pkg', 'pkg/util/strings.go', false],
    ['src/main.rs', 'crate::geo::Shape', 'src/geo.rs', true],
    ['src/main.rs', 'crate::geo::{Shape, Point}', 'src/geo/mod.rs', true],
    ['a.c', 'geo/shape.h', 'include/geo/shape.h', true],
    ['a.c', 'shape.h', 'src/shape.c', true],
    ['a.php', 'App\\Models\\User', 'app/App/Models/User.php', true],
  ])('%s imports %s → %s: %s', (from, spec, target, expected) => {
    expect(importNames(from, spec, target)).toBe(expected);
  });
});

describe('importHints', () => {
  it('names what an importer of the file must mention', () => {
    expect(importHints('src/b.ts')).toEqual(['b']);
    expect(importHints('src/util/index.ts')).toEqual(['index', 'util']);
    expect(importHints('pkg/util/strings.go')).toEqual(['strings', 'util']);
  });
});
