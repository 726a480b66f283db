// cairn-vault's agent tools: diary_write and diary_read (entries in the internal `_clawmem`
// collection, under diary/<agent>/), and beads_sync (a Beads backlog indexed as documents).
import type { Core } from '../../core/index.js';
import {
  beadsSync,
  beadsSyncInput,
  diaryReadInput,
  diaryWriteInput,
  readDiary,
  writeDiary,
} from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool, WRITE } from './vault-tool.js';

export function agentTools(core: Core): VaultTool[] {
  const v = core.vault;
  return [
    vaultTool({
      name: 'beads_sync',
      description:
        'Sync a Beads backlog into the vault: runs `bd list --json --limit 0` in project_path (default the working directory, which must hold .beads/) and indexes every issue as a document of the `beads` collection (incremental; issues gone from the list are deactivated).',
      input: beadsSyncInput,
      annotations: { title: 'Sync Beads issues', ...WRITE, idempotentHint: true },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const deps = { store: v.store, scrubber: v.scrubber, now: v.deps.now, env: process.env };
        const r = await beadsSync(deps, vault, a.project_path ?? process.cwd());
        const skipped = r.skipped.length === 0 ? '' : `; skipped ${r.skipped.join(', ')}`;
        const text = `beads_sync ${r.projectPath} → ${vault}/${r.collection}: ${r.read} read, ${r.new} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.deactivated} deactivated${skipped}`;
        return { text, data: { ...r } };
      },
    }),
    vaultTool({
      name: 'diary_write',
      description:
        "Write an entry to the agent's diary (for environments where hooks do not capture session context). Stored in the internal _clawmem collection at a millisecond path, so rapid writes never collide.",
      input: diaryWriteInput,
      annotations: { title: 'Write a diary entry', ...WRITE, idempotentHint: false },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const deps = { store: v.store, scrubber: v.scrubber, now: v.deps.now };
        const saved = await writeDiary(deps, vault, a);
        const text = `diary entry saved: ${saved.docid} ${saved.path} (agent ${a.agent}, topic ${a.topic})`;
        return { text, data: { vault, ...saved, agent: a.agent, topic: a.topic } };
      },
    }),
    vaultTool({
      name: 'diary_read',
      description:
        'Read recent diary entries, newest first: last_n (default 10, at most 100), optionally of one agent.',
      input: diaryReadInput,
      annotations: { title: 'Read diary entries', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await readDiary(v.store, vault, a);
        return { text: diaryText(vault, a.agent, r), data: { vault, ...r } };
      },
    }),
  ];
}

function diaryText(
  vault: string,
  agent: string | undefined,
  r: Awaited<ReturnType<typeof readDiary>>,
): string {
  if (r.total === 0) return `no diary entries in vault ${vault}`;
  if (r.matching === 0) return `no diary entries for agent "${agent ?? ''}" (${r.total} in all)`;
  const head = `${r.entries.length} of ${r.matching} diary entr${r.matching === 1 ? 'y' : 'ies'}${agent === undefined ? '' : ` of agent "${agent}"`}, newest first`;
  return [
    head,
    ...r.entries.map((e) => `\n## ${e.date} ${e.agent} [${e.topic}] (${e.docid})\n${e.entry}`),
  ].join('\n');
}
