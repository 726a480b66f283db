// cairn-vault's agent tools: diary_write and diary_read (entries in the internal `_clawmem`
// collection, under diary/<agent>/), and beads_sync (a Beads backlog indexed as documents).
import type { Core } from '../../core/index.js';
import { diaryReadInput, diaryWriteInput, readDiary, writeDiary } from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool } from './vault-tool.js';

const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

export function agentTools(core: Core): VaultTool[] {
  const v = core.vault;
  return [
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
