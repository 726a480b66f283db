// cairn-vault's maintenance and vault-management tools: status, reindex, index_stats,
// memory_stats, list_vaults, vault_sync. A sync refuses restricted paths (after resolving
// symlinks) with a tool error naming the path; its report says what changed and what was skipped.
import type { Core } from '../../core/index.js';
import {
  indexStats,
  listVaultsInput,
  memoryStats,
  memoryStatsInput,
  type SyncReport,
  vaultOnlyInput,
  vaultStatus,
  vaultSyncInput,
} from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool, IDEMPOTENT_WRITE } from './vault-tool.js';

function declaredText(d: SyncReport['declared']): string {
  const first = d.unresolvedFirst.map((u) => `${u.path} ${u.key} ${u.ref}: ${u.reason}`);
  return `${d.edges} declared causal edge(s) (${d.added} added, ${d.removed} removed)${d.unresolved === 0 ? '' : `, ${d.unresolved} unresolved reference(s) kept pending (${first.join('; ')}${d.unresolved > first.length ? '; …' : ''})`}`;
}

function syncText(r: SyncReport): string {
  const skipped =
    r.skipped.length === 0
      ? ''
      : `; skipped ${r.skipped.length} (${[...new Set(r.skipped.map((s) => s.reason))].join(', ')})`;
  return `synced ${r.contentRoot} (${r.pattern}) into ${r.vault}/${r.collection}: ${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged, ${r.reactivated} reactivated, ${r.deactivated} deactivated, ${r.fragments} fragments, ${r.redacted} secret(s) redacted${skipped}${r.truncated ? '; WALK LIMIT HIT: nothing was deactivated for missing files' : ''}; ${declaredText(r.declared)} in ${r.ms} ms`;
}

export function adminTools(core: Core): VaultTool[] {
  const v = core.vault;
  return [
    vaultTool({
      name: 'status',
      description:
        'Quick index health: documents, collections, fragments still being indexed or embedded, the embedder.',
      input: vaultOnlyInput,
      annotations: { title: 'Vault status', ...READ_ONLY },
      handler: async (a) => {
        const s = await vaultStatus(v, await v.vault(a.vault));
        const text = [
          `vault ${s.vault}: ${s.documents} document(s) in ${s.collections.length} collection(s); ${s.healthy ? 'healthy' : 'not fully indexed'}`,
          ...s.notes,
        ].join('\n');
        return { text, data: { ...s } };
      },
    }),
    vaultTool({
      name: 'reindex',
      description:
        'Re-scan every synced collection of the vault from its content root (incremental: only changed files are read).',
      input: vaultOnlyInput,
      annotations: {
        title: 'Reindex',
        ...IDEMPOTENT_WRITE,
      },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const reports = await v.reindex(vault);
        const text =
          reports.length === 0
            ? `vault ${vault} has no synced collection to re-scan`
            : reports.map(syncText).join('\n');
        return { text, data: { vault, reports } };
      },
    }),
    vaultTool({
      name: 'index_stats',
      description:
        'Per collection: content type distribution, staleness (days since the sync, files changed on disk since), embedding coverage.',
      input: vaultOnlyInput,
      annotations: { title: 'Index statistics', ...READ_ONLY },
      handler: async (a) => {
        const s = await indexStats(v, await v.vault(a.vault));
        const text = s.collections
          .map(
            (c) =>
              `${c.collection}: ${c.documents} docs, ${c.fragments} fragments, embedded ${c.embeddingCoverage === null ? 'n/a' : `${Math.round(c.embeddingCoverage * 100)}%`}, ${c.changedOnDisk === null ? 'internal' : `${c.changedOnDisk.changed} changed on disk`}`,
          )
          .join('\n');
        return { text: text || `vault ${s.vault} has no collections`, data: { ...s } };
      },
    }),
    vaultTool({
      name: 'memory_stats',
      description:
        'Lifecycle and ranking-metadata aggregates per collection: counts by active state, origin × active, pinned, accrual, created-at span; mean/median/min/max of access count, confidence, quality and effective age over ACTIVE rows; deactivation reasons. Includes system collections. Read-only.',
      input: memoryStatsInput,
      annotations: { title: 'Memory statistics', ...READ_ONLY },
      handler: async (a) => {
        const s = await memoryStats(v, await v.vault(a.vault), a.collection);
        const fmt = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
        const text = s.collections
          .map(
            (c) =>
              `${c.collection}: ${c.counts.active} active / ${c.counts.total}; pinned ${c.pinned}; age days median ${fmt(c.distributions.ageDays.median)}; access mean ${fmt(c.distributions.accessCount.mean)}`,
          )
          .join('\n');
        return { text: text || `vault ${s.vault} has no collections`, data: { ...s } };
      },
    }),
    vaultTool({
      name: 'list_vaults',
      description:
        'Configured and synced vault names with their content roots. Empty in single-vault mode.',
      input: listVaultsInput,
      annotations: { title: 'List vaults', ...READ_ONLY },
      handler: async () => {
        const r = await v.listVaults();
        const text = r.singleVault
          ? 'Single-vault mode: no named vaults (omit `vault` to use the default one).'
          : r.vaults
              .map(
                (x) =>
                  `${x.name}: ${x.contentRoot ?? '(no content root)'} [${x.collections.join(', ')}]`,
              )
              .join('\n');
        return { text, data: { ...r } };
      },
    }),
    vaultTool({
      name: 'vault_sync',
      description:
        'Index markdown from a directory into a named vault (pattern default **/*.md, collection_name default the vault name). Incremental; files deleted on disk are deactivated. Refuses sensitive locations (/etc/, /root/, .ssh, .env, credentials, .aws, .kube), also through symlinks.',
      input: vaultSyncInput,
      annotations: {
        title: 'Sync a vault',
        ...IDEMPOTENT_WRITE,
      },
      handler: async (a) => {
        const r = await v.sync({
          vault: a.vault,
          contentRoot: a.content_root,
          pattern: a.pattern,
          collection: a.collection_name,
        });
        return { text: syncText(r), data: { ...r } };
      },
    }),
  ];
}
