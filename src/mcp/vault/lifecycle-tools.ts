// cairn-vault's mutation and lifecycle tools: memory_pin, memory_snooze, memory_forget (the
// target cascade; forget behind the confidence gate), lifecycle_status, lifecycle_sweep (dry run
// by default, archives only) and lifecycle_restore.
import type { Core } from '../../core/index.js';
import {
  forgetDocument,
  lifecycleRestore,
  lifecycleRestoreInput,
  lifecycleStatus,
  lifecycleSweep,
  lifecycleSweepInput,
  memoryForgetInput,
  memoryPinInput,
  memorySnoozeInput,
  type MutationAnswer,
  pinDocument,
  snoozeDocument,
  vaultOnlyInput,
} from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool, WRITE } from './vault-tool.js';

function mutationText(r: MutationAnswer): string {
  const candidates = r.target.candidates.map(
    (c) => `  ${c.docid} ${c.path} (${c.score.toFixed(3)})`,
  );
  return [
    r.message,
    ...(r.action === 'ambiguous' || r.action === 'not-found' ? candidates : []),
  ].join('\n');
}

export function lifecycleTools(core: Core): VaultTool[] {
  const v = core.vault;
  const deps = v.deps;
  return [
    vaultTool({
      name: 'memory_pin',
      description:
        'Pin a memory (found by path, BM25, title overlap, then vectors): kept by the lifecycle sweep, +0.3 on composite surfaces, and first among exactly tied raw scores. `unpin` undoes it.',
      input: memoryPinInput,
      annotations: { title: 'Pin a memory', ...WRITE, idempotentHint: true },
      handler: async (a) => {
        const r = await pinDocument(deps, await v.vault(a.vault), a.query, a.unpin);
        return { text: mutationText(r), data: { ...r } };
      },
    }),
    vaultTool({
      name: 'memory_snooze',
      description:
        'Hide a memory from retrieval until an ISO date (e.g. 2026-04-01); omit `until` to unsnooze.',
      input: memorySnoozeInput,
      annotations: { title: 'Snooze a memory', ...WRITE, idempotentHint: true },
      handler: async (a) => {
        const r = await snoozeDocument(deps, await v.vault(a.vault), a.query, a.until);
        return { text: mutationText(r), data: { ...r } };
      },
    }),
    vaultTool({
      name: 'memory_forget',
      description:
        'Deactivate a memory (the row is kept, never deleted). Acts only on a confident match (score ≥ 0.7, or a ≥ 0.2 gap to the runner-up); otherwise returns the candidates and changes nothing. confirm: false previews.',
      input: memoryForgetInput,
      annotations: {
        title: 'Forget a memory',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (a) => {
        const r = await forgetDocument(deps, await v.vault(a.vault), a.query, a.confirm);
        return { text: mutationText(r), data: { ...r } };
      },
    }),
    vaultTool({
      name: 'lifecycle_status',
      description:
        'Lifecycle counts: active, archived, forgotten (and every deactivated row), pinned, snoozed.',
      input: vaultOnlyInput,
      annotations: { title: 'Lifecycle status', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const c = await lifecycleStatus(deps, vault);
        const text = `vault ${vault}: ${c.active} active, ${c.archived} archived, ${c.forgotten} forgotten (${c.deactivated} deactivated in all), ${c.pinned} pinned, ${c.snoozed} snoozed`;
        return { text, data: { vault, ...c } };
      },
    }),
    vaultTool({
      name: 'lifecycle_sweep',
      description:
        'Archive stale documents by policy (unpinned handoffs, sessions and progress notes older than 90 days, observations 180, notes, research and deductions 365; decisions, references and preferences never; nothing opened in the last 30 days). dry_run (default true) only lists them. Archives only: no row is ever deleted; lifecycle_restore reverses it.',
      input: lifecycleSweepInput,
      annotations: { title: 'Lifecycle sweep', ...WRITE, idempotentHint: true },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await lifecycleSweep(deps, vault, a.dry_run);
        const lines = r.candidates.slice(0, 50).map((c) => `  ${c.docid} ${c.path}: ${c.reason}`);
        return { text: [r.message, ...lines].join('\n'), data: { vault, ...r } };
      },
    }),
    vaultTool({
      name: 'lifecycle_restore',
      description:
        'Restore archived documents: those matching `query`, all of a `collection`, or `all`.',
      input: lifecycleRestoreInput,
      annotations: { title: 'Restore archived documents', ...WRITE, idempotentHint: true },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        if (a.collection !== undefined) await v.filter(vault, { collection: a.collection });
        const r = await lifecycleRestore(deps, vault, a);
        return {
          text: [r.message, ...r.documents.map((d) => `  ${d.docid} ${d.path}`)].join('\n'),
          data: { vault, ...r },
        };
      },
    }),
  ];
}
