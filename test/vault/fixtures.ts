// Fixtures for cairn-vault tests through the SDK: a core with a stub embedder (two topic axes),
// a temp folder of markdown notes, and the calls that sync it and wait for its vectors.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { Core, CoreOptions } from '../../src/core/index.js';
import type { Embedder } from '../../src/embed/index.js';
import { createVaultServer } from '../../src/mcp/index.js';
import { linkedClient, tempCore, tempDir, type TempDir, textOf } from '../helpers.js';

const AXES = [
  /queue|retry|backoff|letter/i,
  /taco|lunch|food/i,
  /deploy|release|rollout/i,
] as const;

/** A deterministic embedder: one axis per topic (queues, food, deploys). */
export const vaultStub: Embedder = {
  model: 'stub:vault3',
  dims: () => AXES.length,
  warm: () => undefined,
  isReady: () => true,
  close: () => Promise.resolve(),
  embed: (texts) =>
    Promise.resolve(
      texts.map((t) => {
        const v = Float32Array.from(AXES, (re) => (re.test(t) ? 1 : 0.05));
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      }),
    ),
};

export const NOTES: Readonly<Record<string, string>> = {
  'decisions/queue.md': `---\ntitle: Queue retry decision\ntype: decision\ndate: 2026-10-01\ntags: [queue]\n---\n# Queue retry decision\n\nWe chose exponential backoff for the ingest queue because the dead letter queue paged on-call too often.\n\n## Consequences\n\n- retries cap at five\n- the dead letter queue is drained daily\n`,
  'notes/lunch.md': `# Lunch\n\nTacos on friday near the office. The food truck comes at noon.\n`,
  'handoffs/2026-11-30.md': `---\ntype: handoff\ndate: 2026-11-30\n---\n# Handoff: deploy pipeline\n\nLeft off at the release checklist; the rollout flag is still off.\n`,
  'research/backoff.md': `# Backoff research\n\nJitter spreads retries so a queue does not stampede after an outage.\n\n\`\`\`ts\nconst delay = base * 2 ** attempt;\n\`\`\`\n`,
};

/** Writes `files` (path → text) under `root`. */
export function writeNotes(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** Calls a vault tool that must succeed: its text and structuredContent. */
export async function callVault<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; data: T }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed: ${textOf(result)}`);
  return { text: textOf(result), data: result.structuredContent as T };
}

export interface VaultSetup {
  core: Core;
  client: Client;
  notes: TempDir;
  /** vault_sync of the notes folder into `vault`, then every fragment embedded. */
  sync(vault?: string, root?: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function vaultSetup(options: CoreOptions = {}): Promise<VaultSetup> {
  const t = await tempCore({ embedder: vaultStub, ...options });
  const notes = tempDir('cairn-vault-notes-');
  writeNotes(notes.path, NOTES);
  const client = await linkedClient(createVaultServer(t.core));
  return {
    core: t.core,
    client,
    notes,
    sync: async (vault = 'default', root = notes.path) => {
      const r = await callVault(client, 'vault_sync', { vault, content_root: root });
      await t.core.vaultEmbedWorker?.drain();
      return r.data;
    },
    close: async () => {
      await client.close();
      await t.close();
      notes.cleanup();
    },
  };
}
