// The index family of cairn-context through a real SDK client, over a database file so jobs
// run in a worker thread: index_repo waits for its job (with progress notifications), a re-run
// is incremental, a dry run writes nothing, an index that matches nothing says so, index_status
// reports counts, provenance and freshness, clear_index removes the collection, and provenance
// is required (-32602 with the spec's message).
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { JobStatus } from '../../src/code/index.js';
import type { Core } from '../../src/core/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, callRpcInvalid, linkedClient } from '../helpers.js';
import { callContext, contextCore, makeProject, type Project } from './fixtures.js';

interface StatusEntry {
  collection: string;
  state: string;
  files: number;
  chunks: number;
  indexedAt: string | null;
  freshness: { changed: number; missing: number; checked: number } | null;
}

describe('cairn-context: the index family', () => {
  let project: Project;
  let core: Core;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    project = makeProject();
    const t = await contextCore(project);
    core = t.core;
    client = await linkedClient(createContextServer(core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  const index = (args: Record<string, unknown> = {}) =>
    callContext<{ job: JobStatus }>(client, 'index_repo', {
      path: project.root,
      collection: 'demo',
      ...args,
    });

  it('indexes in the background, waits with progress, and re-indexes incrementally', async () => {
    const reports: { progress: number }[] = [];
    const result = await client.callTool(
      { name: 'index_repo', arguments: { path: project.root, collection: 'demo' } },
      undefined,
      { onprogress: (p) => reports.push(p) },
    );
    expect(result.isError).toBeUndefined();
    const job = (result.structuredContent as { job: JobStatus }).job;
    expect(job.state).toBe('done');
    // load.ts, pick.ts, f.py, README.md; node_modules and the binary are left out.
    expect(job.files.indexed).toBe(4);
    expect(job.chunks).toBeGreaterThanOrEqual(4);
    expect(reports.length).toBeGreaterThan(0);
    const meta = result._meta?.['cairn/provenance'] as { model_id?: string } | undefined;
    expect(meta?.model_id).toBe('test-model');
    const rows = await core.store.all<{ model_id: string }>(
      'SELECT DISTINCT p.model_id FROM code_chunks c JOIN code_provenance p ON p.id = c.provenance_id',
    );
    expect(rows).toEqual([{ model_id: 'test-model' }]);

    project.write('src/load.ts', 'export function load2() {\n  return 2;\n}\n');
    const again = await index();
    expect(again.data.job.files).toMatchObject({ indexed: 1, unchanged: 3, removed: 0 });
    expect(again.text).toMatch(/^Indexed collection demo: 1 indexed, 3 unchanged/);
  });

  it('index_status reports counts and freshness; clear_index removes the collection', async () => {
    expect((await callContext(client, 'index_status', {})).text).toMatch(/No collection/);
    await index();
    const file = join(project.root, 'src/pick.ts');
    writeFileSync(file, 'export const changed = 1;\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const status = await callContext<{ collections: StatusEntry[] }>(client, 'index_status', {
      collection: 'demo',
    });
    const entry = status.data.collections[0];
    expect(entry).toMatchObject({ collection: 'demo', state: 'ready', files: 4 });
    expect(entry?.indexedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(entry?.freshness).toMatchObject({ changed: 1, missing: 0, checked: 4 });
    expect(status.text).toContain('Since then: 1 changed, 0 missing of 4 checked');
    // Without an embedder there are no chunk embeddings to report.
    expect(entry).toMatchObject({ embeddings: null });
    expect(status.text).not.toContain('Embeddings');

    const cleared = await callContext<{ files: number }>(client, 'clear_index', {
      collection: 'demo',
    });
    expect(cleared.data.files).toBe(4);
    const after = await callContext<{ collections: StatusEntry[] }>(client, 'index_status', {});
    expect(after.data.collections).toEqual([]);
    const chunks = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_chunks');
    expect(chunks?.n).toBe(0);
  });

  it('a dry run writes nothing; an index matching nothing says so loudly', async () => {
    const plan = await callContext<{ dryRun: boolean; plan: { files: number } }>(
      client,
      'index_repo',
      { path: project.root, dry_run: true },
    );
    expect(plan.data).toMatchObject({ dryRun: true, plan: { files: 4 } });
    expect(plan.text).toMatch(/^Dry run of .*: 4 files/);
    const n = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_collections');
    expect(n?.n).toBe(0);

    const none = await index({ extensions: ['zzz'] });
    expect(none.data.job.state).toBe('failed');
    expect(none.text).toMatch(/^NOTHING INDEXED in collection demo/);
  });

  it('refuses bad input naming the field, and missing provenance with -32602', async () => {
    expect(await callInvalid(client, 'index_repo', { path: '/etc' })).toMatch(
      /^invalid args: path/,
    );
    expect(
      await callInvalid(client, 'index_repo', { path: project.root, max_file_size: -1 }),
    ).toMatch(/max_file_size/);
    expect(await callInvalid(client, 'clear_index', {})).toMatch(/collection/);
    const unknown = await client.callTool({
      name: 'clear_index',
      arguments: { collection: 'nope' },
    });
    expect(unknown).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'no collection named "nope"' }],
    });
    const bare = await contextCore(project, { USER: 'ann' });
    const other = await linkedClient(createContextServer(bare.core));
    try {
      expect(await callRpcInvalid(other, 'index_repo', { path: project.root })).toMatch(
        /Missing execution provenance for 'index': model_id\. model_id could not be auto-discovered/,
      );
    } finally {
      await other.close();
      await bare.close();
    }
  });
});
