// Where code paths may lie: CoreOptions.codeRoots, else CAIRN_CODE_ROOTS (absolute folders
// separated by ':'), else the user's home and the temp folder; a relative entry is refused.
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { silentLogger, tempCore, tempDir } from '../helpers.js';

const saved = process.env['CAIRN_CODE_ROOTS'];
afterEach(() => {
  if (saved === undefined) delete process.env['CAIRN_CODE_ROOTS'];
  else process.env['CAIRN_CODE_ROOTS'] = saved;
});

describe('Core.codeRoots', () => {
  it('defaults to home and the temp folder; CAIRN_CODE_ROOTS and the option override', async () => {
    delete process.env['CAIRN_CODE_ROOTS'];
    const plain = await tempCore({ embedder: null });
    expect(plain.core.codeRoots).toEqual([realpathSync(homedir()), realpathSync(tmpdir())]);
    await plain.close();
    process.env['CAIRN_CODE_ROOTS'] = ' /srv/code : /opt/src ::';
    const env = await tempCore({ embedder: null });
    expect(env.core.codeRoots).toEqual(['/srv/code', '/opt/src']);
    await env.close();
    const given = await tempCore({ embedder: null, codeRoots: ['/work'] });
    expect(given.core.codeRoots).toEqual(['/work']);
    await given.close();
  });

  it('refuses a relative folder in CAIRN_CODE_ROOTS', async () => {
    process.env['CAIRN_CODE_ROOTS'] = '/srv/code:src';
    const dir = tempDir();
    await expect(
      createCore({ dbPath: join(dir.path, 'cairn.db'), embedder: null, logger: silentLogger }),
    ).rejects.toThrow('CAIRN_CODE_ROOTS must list absolute folders, got src');
    dir.cleanup();
  });
});
