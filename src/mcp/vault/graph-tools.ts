// cairn-vault's knowledge-graph tool: kg_query over the vault's extracted facts. Thin: resolve
// the vault, run the domain query, render one line per triple with its evidence.
import type { Core } from '../../core/index.js';
import { type KgAnswer, type KgFact, kgQuery, kgQueryInput } from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool } from './vault-tool.js';

function evidenceText(f: KgFact): string {
  if (f.evidenceCount === 0) return '';
  const sources = f.sources.map((s) =>
    s.unattributed ? 'unattributed' : `${s.collection ?? ''}/${s.path ?? ''} (${s.docId ?? ''})`,
  );
  return ` [evidence ×${f.evidenceCount}; sources: ${sources.join(', ')}]`;
}

function factLine(f: KgFact): string {
  const span = `${f.valid_from ?? '…'} → ${f.valid_to ?? 'now'}`;
  return `${f.subject} —${f.predicate}→ ${f.object} (${span}; ${f.current ? 'current' : 'ended'}; confidence ${f.confidence})${evidenceText(f)}`;
}

export const kgText = (r: KgAnswer): string => [r.message, ...r.facts.map(factLine)].join('\n');

export function graphTools(core: Core): VaultTool[] {
  const v = core.vault;
  return [
    vaultTool({
      name: 'kg_query',
      description:
        "Query the vault's subject–predicate–object knowledge graph (facts extracted from its documents) for an entity's relationships: triples with valid_from, valid_to, confidence, current status and evidence (evidenceCount of unique (document, fact) pairs, up to 5 sources newest first). Entity resolution by full text, then slug. as_of (YYYY-MM-DD) keeps facts valid on that date. Not filtered by the internal-collection policy.",
      input: kgQueryInput,
      annotations: { title: 'Query the knowledge graph', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await kgQuery(v.store, vault, a);
        return { text: kgText(r), data: { vault, ...r } };
      },
    }),
  ];
}
