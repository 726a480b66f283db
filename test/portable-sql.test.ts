// Fails when SQL outside src/store uses a form only SQLite accepts or that means something else
// on PostgreSQL 15 (issue 16): every string and template literal of src/**/*.ts (tests and
// src/store excepted) that reads as SQL is checked against test/portable-sql-rules.ts. The
// checker itself is shown to report each form and to pass portable SQL and ordinary code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from './helpers.js';
import { SQL_RULES } from './portable-sql-rules.js';
import { checkPortableSql, checkSqlLiterals, sqlLiterals } from './portable-sql.js';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

const files = walk(join(ROOT, 'src'))
  .map((f) => relative(ROOT, f))
  .filter((f) => !f.startsWith('src/store/'));
const literals = new Map(
  files.map((f) => [f, sqlLiterals(f, readFileSync(join(ROOT, f), 'utf8'))]),
);

/** One SQL sample per rule, each of which the rule must report. */
const DIALECT_SAMPLES: Record<string, string> = {
  rowid: 'SELECT * FROM tasks t ORDER BY t.created_at, t.rowid',
  'INSERT OR …': 'INSERT OR IGNORE INTO deps (a, b) VALUES (?, ?)',
  'REPLACE INTO': 'REPLACE INTO settings (k, v) VALUES (?, ?)',
  'ON CONFLICT DO UPDATE without a target':
    'INSERT INTO settings (k, v) VALUES (?, ?) ON CONFLICT DO UPDATE SET v = excluded.v',
  'SQLite JSON functions': 'SELECT * FROM chunks WHERE id IN (SELECT value FROM json_each(?))',
  'COLLATE NOCASE/RTRIM': 'SELECT * FROM agents ORDER BY nick COLLATE NOCASE',
  'GLOB / REGEXP': "SELECT path FROM files WHERE path GLOB '*.ts'",
  'LIKE without lower()': "SELECT path FROM files WHERE path LIKE ? ESCAPE '\\'",
  IFNULL: 'SELECT IFNULL(title, name) AS label FROM items',
  'scalar MAX(a, b) / MIN(a, b)': 'UPDATE agents SET seen = MAX(seen, ?) WHERE nick = ?',
  'SQLite date functions': "SELECT strftime('%s', 'now') AS now FROM items",
  'LIMIT -1 / LIMIT n, m': 'SELECT * FROM items ORDER BY id LIMIT -1 OFFSET ?',
  'other SQLite-only functions': 'SELECT group_concat(name) AS names FROM items',
  'SQLite-only statements and objects': 'SELECT rank FROM memory_fts WHERE memory_fts MATCH ?',
  'IS ? / IS column': 'SELECT * FROM items WHERE team_id IS ?',
  'untyped ? IS NULL': 'SELECT * FROM notes WHERE (? IS NULL OR caller = ?)',
  'double-quoted string literal': 'SELECT * FROM items WHERE kind = "fact"',
  'mixed-case alias': 'SELECT t.id AS taskId FROM tasks t',
};

/** Portable SQL and ordinary code the checker must leave alone. */
const CLEAN = `
const ORDER = 'ORDER BY t.priority DESC, t.created_at ASC, t.seq ASC';
const a = 'INSERT INTO deps (a, b, at) VALUES (?, ?, ?) ON CONFLICT (a, b) DO NOTHING';
const b = \`INSERT INTO grants (p, t) VALUES (?, ?)
  ON CONFLICT (p, t) WHERE revoked_at IS NULL DO UPDATE SET t = excluded.t\`;
const c = 'SELECT * FROM agents ORDER BY lower(nick), nick';
const d = \`SELECT path FROM files WHERE lower(imports) LIKE lower(?) ESCAPE '\\\\' AND id IN \${list}\`;
const e = 'SELECT COALESCE(MAX(seq), 0) + 1 AS next, COUNT(*) AS n FROM tasks WHERE deleted_at IS NULL';
const f = 'SELECT v.item_rowid AS item_rowid, t.id AS "taskId" FROM vectors v JOIN tasks t ON t.id = v.t';
const g = 'SELECT * FROM items WHERE team_id IS NOT DISTINCT FROM ? AND x IS NOT NULL ORDER BY at DESC NULLS LAST';
const i = 'SELECT * FROM notes WHERE (CAST(? AS TEXT) IS NULL OR caller = ?) ORDER BY id';
const h = "SELECT CAST(size AS INTEGER) AS size, substr(room_id, 1, 5) AS p FROM rooms LIMIT ? OFFSET ?";
const fused = hits.map((hit) => ({ rowid: hit.rowid, score: hit.score }));
const prose = 'ties are broken by rowid, and COLLATE NOCASE is not used';
`;

describe('portable SQL outside src/store', () => {
  it('reads the SQL of the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...literals.values()].flat().length).toBeGreaterThan(100);
  });

  it('finds no dialect-only SQL in domains and façades', () => {
    const found = [...literals].flatMap(([f, sql]) => checkSqlLiterals(f, sql));
    expect(found.map((v) => v.message)).toEqual([]);
  });
});

describe('the portable-SQL checker', () => {
  it('has a sample for every rule', () => {
    expect(Object.keys(DIALECT_SAMPLES).sort()).toEqual(SQL_RULES.map((r) => r.name).sort());
  });

  it('reports each dialect-only form at its line, with the reason and the portable form', () => {
    const names = Object.keys(DIALECT_SAMPLES);
    const source = names
      .map((name, i) => `export const s${i} = ${JSON.stringify(DIALECT_SAMPLES[name])};`)
      .join('\n');
    const found = checkPortableSql('sample.ts', source);
    names.forEach((name, i) => {
      const rule = SQL_RULES.find((r) => r.name === name);
      const hit = found.find((v) => v.line === i + 1 && v.rule === name);
      expect(hit, name).toBeDefined();
      expect(hit?.message).toBe(
        `sample.ts:${i + 1}: ${name}: ${rule?.reason}; instead: ${rule?.instead}`,
      );
    });
  });

  it('checks template literals, their substitutions and SQL fragments', () => {
    const source = [
      'const inner = `ORDER BY m.created_at DESC, m.rowid DESC`;',
      'const q = `SELECT * FROM t WHERE a IN ${`(SELECT value FROM json_each(?))`} LIMIT ?`;',
    ].join('\n');
    expect(checkPortableSql('t.ts', source).map((v) => [v.line, v.rule])).toEqual([
      [1, 'rowid'],
      [2, 'SQLite JSON functions'],
    ]);
  });

  it('passes portable SQL and leaves ordinary code and prose alone', () => {
    expect(sqlLiterals('clean.ts', CLEAN).length).toBeGreaterThanOrEqual(8);
    expect(checkPortableSql('clean.ts', CLEAN)).toEqual([]);
  });
});
