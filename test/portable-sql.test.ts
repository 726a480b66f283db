// Fails when SQL that runs on both backends uses a form only SQLite accepts or that means
// something else on PostgreSQL 15 (issue 16): every string and template literal of src/**/*.ts
// that reads as SQL is checked against test/portable-sql-rules.ts, outside src/store/pg and the
// SQLite-only store files below (the SQLite arm of a dialect branch is skipped). The checker
// itself is shown to report each form and to pass portable SQL and ordinary code.
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

/** Store files whose SQL runs only on SQLite, and why; PostgreSQL has its own in src/store/pg. */
const SQLITE_ONLY_STORE: Record<string, string> = {
  'src/store/memory-index.ts': 'FTS5 ranking; PostgreSQL ranks memory by the postings',
  'src/store/vector-tables.ts': 'sqlite-vec tables; PostgreSQL has pg/pg-vectors.ts',
};

/** Migrations are SQLite DDL (pg/pg-ddl.ts translates them) and SQLite's own driver files. */
const sqliteOnly = (f: string): boolean =>
  f in SQLITE_ONLY_STORE || /^src\/store\/(?:migrations?[-.]|sqlite)/.test(f);

const all = walk(join(ROOT, 'src')).map((f) => relative(ROOT, f));
const files = all.filter((f) => !f.startsWith('src/store/'));
/** Store files whose SQL is portable or branches per dialect. */
const storeFiles = all.filter(
  (f) => f.startsWith('src/store/') && !f.startsWith('src/store/pg/') && !sqliteOnly(f),
);
const literals = new Map(
  [...files, ...storeFiles].map((f) => [f, sqlLiterals(f, readFileSync(join(ROOT, f), 'utf8'))]),
);
/** Store tables keep an explicit rowid column on PostgreSQL (pg/pg-ddl.ts). */
const STORE_RULES = SQL_RULES.filter((r) => r.name !== 'rowid');

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
  'mixed-case name': 'SELECT t.id, COUNT(*) AS "evidenceCount" FROM t ORDER BY evidenceCount DESC',
  'unqualified column in DO UPDATE': `INSERT INTO w (k, c, at) VALUES (?, ?, ?) ON CONFLICT (k)
    DO UPDATE SET at = CASE WHEN excluded.c > c THEN excluded.at ELSE w.at END`,
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
const j = 'SELECT COUNT(*) AS "evidenceCount", MAX(at) AS "newestAt" FROM t ORDER BY COUNT(*) DESC, "newestAt"';
const k = \`INSERT INTO w (k, c, n) VALUES (?, ?, 1) ON CONFLICT (k) DO UPDATE SET n = w.n + 1,
  c = CASE WHEN excluded.c > w.c THEN excluded.c ELSE w.c END, at = ? WHERE w.c <> excluded.c RETURNING n\`;
const l = dialect === 'sqlite' ? 'SELECT value FROM json_each(?) ORDER BY rowid' : 'SELECT 1 FROM t';
`;

describe('portable SQL in domains, façades and the store', () => {
  it('reads the SQL of the source tree', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...literals.values()].flat().length).toBeGreaterThan(100);
  });

  it('finds no dialect-only SQL in domains and façades', () => {
    const found = files.flatMap((f) => checkSqlLiterals(f, literals.get(f) ?? []));
    expect(found.map((v) => v.message)).toEqual([]);
  });

  it('finds none in the store SQL that runs on both backends', () => {
    expect(storeFiles).toContain('src/store/vault-profile.ts');
    expect(storeFiles.filter((f) => f.startsWith('src/store/migration'))).toEqual([]);
    const found = storeFiles.flatMap((f) =>
      checkSqlLiterals(f, literals.get(f) ?? [], STORE_RULES),
    );
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

  it('skips the SQLite arm of a dialect branch, not the other arm', () => {
    const source = [
      "const a = dialect === 'sqlite' ? 'SELECT value FROM json_each(?)' : 'SELECT x FROM t WHERE y IS ?';",
      "if (db.dialect === 'sqlite') q = 'SELECT rowid FROM t';",
      "else q = 'SELECT t.rowid FROM t';",
    ].join('\n');
    expect(checkPortableSql('b.ts', source).map((v) => [v.line, v.rule])).toEqual([
      [1, 'IS ? / IS column'],
      [3, 'rowid'],
    ]);
  });

  it('passes portable SQL and leaves ordinary code and prose alone', () => {
    expect(sqlLiterals('clean.ts', CLEAN).length).toBeGreaterThanOrEqual(11);
    expect(checkPortableSql('clean.ts', CLEAN)).toEqual([]);
  });
});
