// `cairn import server-memory` as its own process: a dry run, the import, a rerun adding
// nothing, a bad line refusing the whole file with its line number (exit 1), a reserved or
// malformed --graph refused (exit 2).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { backendFor, tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

let home: TempDir;
let dropDb: () => Promise<void>;
beforeEach(async () => {
  home = tempDir('cairn-import-');
  // On the postgres project `cairn import --db FILE` writes a fresh database standing in for FILE.
  dropDb = await backendFor(join(home.path, 'cairn.db'));
});
afterEach(async () => {
  await dropDb();
  home.cleanup();
});

const ENTITY = '{"type":"entity","name":"Ada","entityType":"person","observations":["a"]}';
const RELATION = '{"type":"relation","from":"Ada","to":"Bob","relationType":"knows"}';

describe('cairn import server-memory', () => {
  it('dry-runs, imports, and adds nothing on a rerun', async () => {
    const file = join(home.path, 'memory.jsonl');
    writeFileSync(file, `${ENTITY}\n${RELATION}\n`);
    const db = ['--db', join(home.path, 'cairn.db')];
    const dry = await cairn(home.path, ['import', 'server-memory', file, '--dry-run', ...db]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('nothing written');
    expect(dry.stdout).toContain('entities: 1 read, 1 new, 0 already present');
    const run = await cairn(home.path, ['import', 'server-memory', file, '--graph', 'g', ...db]);
    expect(run.stdout).toContain('relations: 1 read, 1 new, 0 already present');
    const again = await cairn(home.path, [
      'import',
      'server-memory',
      file,
      '--graph',
      'g',
      '--json',
      ...db,
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({
      graph: 'g',
      entities: { read: 1, new: 0, present: 1 },
      relations: { read: 1, new: 0, present: 1 },
      observations: { read: 1, new: 0, present: 1 },
    });
  }, 60_000);

  it('refuses a file with a bad line, naming it, and imports nothing', async () => {
    const file = join(home.path, 'bad.jsonl');
    writeFileSync(file, `${ENTITY}\n{"type":"relation","from":"Ada"}\n`);
    const db = ['--db', join(home.path, 'cairn.db')];
    const run = await cairn(home.path, ['import', 'server-memory', file, ...db]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}:2: `);
    expect(run.stderr).toContain('nothing imported');
    const dry = await cairn(home.path, [
      'import',
      'server-memory',
      join(home.path, 'ok.jsonl'),
      ...db,
    ]);
    expect(dry.code).toBe(1);
  }, 60_000);

  it("refuses a vault's reserved graph and a malformed name before reading the file", async () => {
    const file = join(home.path, 'memory.jsonl');
    writeFileSync(file, `${ENTITY}\n`);
    const db = ['--db', join(home.path, 'cairn.db')];
    const vault = await cairn(home.path, [
      'import',
      'server-memory',
      file,
      '--graph',
      'vault:x',
      ...db,
    ]);
    expect(vault.code).toBe(2);
    expect(vault.stderr).toMatch(/^cairn: --graph: graph "vault:x" is reserved/);
    const blank = await cairn(home.path, ['import', 'server-memory', file, '--graph', ' ', ...db]);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toMatch(/^cairn: --graph: bad graph name " "/);
  }, 60_000);
});
