// The injection rules in every language they claim: a command or SQL statement built from
// values at the call site is reported; the same call with a literal, with arguments kept apart
// or with bound parameters is not.
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';

const JS_SHELL: Case = [
  'typescript',
  "import { exec } from 'node:child_process';\nexec(`tar xf ${file}`);\n",
  "import { execFile, exec } from 'node:child_process';\nexecFile('tar', ['xf', file]);\nexec('ls -l');\nconst m = /x/.exec(`${file}`);\n",
  2,
];
suite('shell-injection', [
  JS_SHELL,
  ['tsx', JS_SHELL[1], JS_SHELL[2], 2],
  [
    'javascript',
    "const cp = require('child_process');\ncp.execSync('rm -rf ' + dir);\n",
    "const cp = require('child_process');\ncp.execFileSync('rm', ['-rf', dir]);\n",
    2,
  ],
  [
    'python',
    'import subprocess\nsubprocess.run(f"ls {path}", shell=True)\n',
    'import subprocess\nsubprocess.run(["ls", path])\nsubprocess.run(f"ls {path}")\nos.system("ls")\n',
    2,
  ],
  ['php', '<?php\n$a = 1;\nsystem("ls " . $dir);\n', "<?php\n$a = 1;\nsystem('ls');\n", 3],
  [
    'ruby',
    'x = 1\nsystem("tar xf #{file}")\n',
    'x = 1\nsystem("tar", "xf", file)\nsystem("ls")\n',
    2,
  ],
  [
    'go',
    'package m\nfunc f() {\n\texec.Command("sh", "-c", "ls "+dir)\n}\n',
    'package m\nfunc f() {\n\texec.Command("ls", dir)\n}\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n  Runtime.getRuntime().exec("ls " + dir);\n} }\n',
    'class A { void f() {\n  new ProcessBuilder("ls", dir);\n} }\n',
    2,
  ],
]);

describe('shell-injection', () => {
  it('follows child_process bindings: aliases, namespaces, destructured require', async () => {
    const text = [
      "import * as cp from 'child_process';",
      "import { execSync as run } from 'child_process';",
      "const { exec } = require('node:child_process');",
      'cp.exec(`a ${x}`);',
      'run(`b ${x}`);',
      'exec("c " + x);',
      "require('child_process').exec(`d ${x}`);",
      'other.exec(`e ${x}`);',
    ].join('\n');
    const findings = await run('shell-injection', 'typescript', text);
    expect(findings.map((f) => f.line)).toEqual([4, 5, 6, 7]);
  });

  it('backticks with interpolation in PHP and Ruby', async () => {
    expect(
      (await run('shell-injection', 'php', '<?php\n$o = `ls $d`;\n$p = `ls`;\n')).map(
        (f) => f.line,
      ),
    ).toEqual([2]);
    expect(
      (await run('shell-injection', 'ruby', 'o = `ls #{d}`\np = `ls`\n')).map((f) => f.line),
    ).toEqual([1]);
  });
});

const JS_SQL: Case = [
  'typescript',
  'const id = req.id;\nawait db.query(`SELECT * FROM users WHERE id = ${id}`);\n',
  "const id = req.id;\nawait db.query('SELECT * FROM users WHERE id = $1', [id]);\nlog(`select ${id}`);\n",
  2,
];
suite('sql-injection', [
  JS_SQL,
  ['tsx', JS_SQL[1], JS_SQL[2], 2],
  [
    'javascript',
    'const id = 1;\ndb.prepare("DELETE FROM t WHERE id = " + id).run();\n',
    'const id = 1;\ndb.prepare("DELETE FROM t WHERE id = ?").run(id);\n',
    2,
  ],
  [
    'python',
    'x = 1\ncur.execute("SELECT * FROM t WHERE name = \'%s\'" % name)\n',
    'x = 1\ncur.execute("SELECT * FROM t WHERE name = %s", (name,))\n',
    2,
  ],
  [
    'go',
    'package m\nfunc f() {\n\tdb.Query(fmt.Sprintf("SELECT * FROM t WHERE id = %d", id))\n}\n',
    'package m\nfunc f() {\n\tdb.Query("SELECT * FROM t WHERE id = $1", id)\n}\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n  st.executeQuery("SELECT a FROM t WHERE id = " + id);\n} }\n',
    'class A { void f() {\n  st.executeQuery("SELECT a FROM t WHERE id = " + 42);\n} }\n',
    2,
  ],
  [
    'kotlin',
    'fun f() {\n  jdbc.queryForList("SELECT * FROM t WHERE n = \'$name\'")\n}\n',
    'fun f() {\n  jdbc.queryForList("SELECT * FROM t WHERE n = ?", name)\n}\n',
    2,
  ],
  [
    'csharp',
    'class A { void F() {\n  var c = new SqlCommand($"SELECT * FROM t WHERE id = {id}", conn);\n} }\n',
    'class A { void F() {\n  var c = new SqlCommand("SELECT * FROM t WHERE id = @id", conn);\n} }\n',
    2,
  ],
  [
    'php',
    '<?php\n$a = 1;\nmysqli_query($conn, "SELECT * FROM t WHERE id = $id");\n',
    '<?php\n$a = 1;\n$stmt = $pdo->prepare("SELECT * FROM t WHERE id = ?");\n',
    3,
  ],
  [
    'ruby',
    'x = 1\nUser.find_by_sql("SELECT * FROM users WHERE name = \'#{name}\'")\n',
    'x = 1\nUser.find_by_sql(["SELECT * FROM users WHERE name = ?", name])\n',
    2,
  ],
]);

describe('sql-injection', () => {
  it('needs an SQL statement: other built strings passed to exec or run are not SQL', async () => {
    const text =
      'db.exec(`PRAGMA ${p}`);\nrunner.run("update " + x);\nq.run("update t set a = " + x);\n';
    const findings = await run('sql-injection', 'javascript', text);
    expect(findings.map((f) => f.line)).toEqual([3]);
  });

  it('a table name or a fragment built elsewhere is not a value position', async () => {
    const text = [
      'db.run(`DELETE FROM ${table} WHERE rowid = ?`, [id]);',
      'db.run(`UPDATE items SET a = ? WHERE ${where.sql}`, args);',
      "db.run(`SELECT a FROM t WHERE b LIKE '${prefix}%'`);",
      'db.run("INSERT INTO t (a) VALUES (" + a + ")");',
    ].join('\n');
    const findings = await run('sql-injection', 'typescript', text);
    expect(findings.map((f) => f.line)).toEqual([3, 4]);
    const py =
      'cur.execute("SELECT * FROM %s WHERE a = 1" % table)\ncur.execute("SELECT * FROM t WHERE a = {}".format(a))\n';
    expect((await run('sql-injection', 'python', py)).map((f) => f.line)).toEqual([2]);
  });

  it('a value that only generates placeholders is not reported', async () => {
    const text = [
      "db.run(`DELETE FROM t WHERE id IN (${ids.map(() => '?').join(',')})`, ids);",
      'db.run(`DELETE FROM t WHERE id IN (${placeholders})`, ids);',
      "db.run(`DELETE FROM t WHERE id IN (${ids.map(() => '?')}) AND a = ${a}`);",
      "db.all(`SELECT a FROM ${table} WHERE id IN (${ids.map(() => '?').join(',')})`, ids);",
      'db.all(`SELECT a FROM t WHERE a = ? AND ${SAME_SCOPE}`, args);',
      'db.run(`DELETE FROM t WHERE id IN (SELECT id FROM t WHERE c = ? LIMIT ${n})`, [c]);',
      'db.all(`SELECT a FROM t WHERE kind = ${Kind.FILE_KIND} AND n < ${MAX_N}`);',
    ].join('\n');
    const findings = await run('sql-injection', 'typescript', text);
    expect(findings.map((f) => f.line)).toEqual([3]);
  });
});
