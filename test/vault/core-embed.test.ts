// The core's vault fragment backlog: absent with CAIRN_EMBEDDINGS=none; with an embedder, a
// sync's fragments wait for vectors until the backlog is woken, then drain in the background
// and vector search over the vault finds them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createScrubber } from '../../src/memory/index.js';
import { syncVault } from '../../src/vault/index.js';
import { stubEmbedder } from '../code/search-fixtures.js';
import { tempCore } from '../helpers.js';

const saved = process.env['CAIRN_EMBEDDINGS'];
afterEach(() => {
  if (saved === undefined) delete process.env['CAIRN_EMBEDDINGS'];
  else process.env['CAIRN_EMBEDDINGS'] = saved;
});

describe('Core.vaultEmbedWorker', () => {
  it('is absent with CAIRN_EMBEDDINGS=none', async () => {
    process.env['CAIRN_EMBEDDINGS'] = 'none';
    const t = await tempCore();
    try {
      expect(t.core.vaultEmbedWorker).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('embeds a synced vault off the request path once woken', async () => {
    const t = await tempCore({
      embedder: { ...stubEmbedder(), dims: () => 3, close: () => Promise.resolve() },
    });
    try {
      const root = join(t.dir.path, 'notes');
      mkdirSync(root);
      writeFileSync(join(root, 'cache.md'), '# Cache\nevict the oldest entry from the cache');
      await syncVault(t.core.store, {
        vault: 'default',
        contentRoot: root,
        scrubber: createScrubber(),
      });
      const worker = t.core.vaultEmbedWorker;
      expect(await worker?.pending()).toBe(2);
      worker?.wake();
      await expect.poll(() => worker?.pending()).toBe(0);
      const [v] = await stubEmbedder().embed(['cache']);
      const hits = await t.core.store.vaultIndex.nearest(
        'stub:3',
        v ?? new Float32Array(3),
        { vault: 'default', now: Date.now() },
        5,
      );
      expect(hits).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});
