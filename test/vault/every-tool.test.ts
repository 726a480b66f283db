// The every-tool pass of every-tool.ts on the in-memory link, with and without vectors: it must
// cover exactly the tools the server lists (so the stdio and HTTP suites that run it do too).
import { afterEach, describe, expect, it } from 'vitest';

import { toolNames } from '../helpers.js';
import { callEveryVaultTool } from './every-tool.js';
import { vaultSetup, type VaultSetup } from './fixtures.js';

let s: VaultSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('every vault tool in one pass', () => {
  it('covers every listed tool, with vectors', async () => {
    s = await vaultSetup();
    const called = await callEveryVaultTool(s.client, 'default', s.notes.path, true);
    expect([...called].sort()).toEqual(await toolNames(s.client));
  });

  it('the vector tools refuse by name without an embedder', async () => {
    s = await vaultSetup({ embedder: null });
    await callEveryVaultTool(s.client, 'default', s.notes.path, false);
  });
});
