import { describe, expect, it } from 'vitest';

import { pgPlaceholders } from './pg-sql.js';

describe('pgPlaceholders', () => {
  it('numbers each ? in order', () => {
    expect(pgPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    );
  });

  it('leaves ? inside strings, quoted identifiers, comments and dollar quotes alone', () => {
    const sql = `SELECT '?', 'it''s ?', "col?" FROM t -- why?
      WHERE x = ? /* ? */ AND y = $fn$ ? $fn$ AND z = ?`;
    expect(pgPlaceholders(sql)).toBe(`SELECT '?', 'it''s ?', "col?" FROM t -- why?
      WHERE x = $1 /* ? */ AND y = $fn$ ? $fn$ AND z = $2`);
  });

  it('keeps an unterminated quote as text instead of numbering inside it', () => {
    expect(pgPlaceholders("SELECT ? WHERE a = 'x?")).toBe("SELECT $1 WHERE a = 'x?");
  });
});
