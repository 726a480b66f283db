// cairn-vault's graph tools: kg_query over the vault's extracted facts (one line per triple
// with its evidence), build_graphs (the temporal and semantic document graphs) and
// memory_evolution_status (a document's A-MEM note history). Thin:
// resolve the vault, run the domain operation, render its text.
import type { Core } from '../../core/index.js';
import {
  type BuildGraphsAnswer,
  buildGraphs,
  buildGraphsInput,
  type EvolutionEntry,
  type EvolutionStatus,
  evolutionStatus,
  evolutionStatusInput,
  type KgAnswer,
  type KgFact,
  kgQuery,
  kgQueryInput,
} from '../../vault/index.js';
import { READ_ONLY, type VaultTool, vaultTool, IDEMPOTENT_WRITE } from './vault-tool.js';

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

/** `Temporal graph: N new edge(s), M total.` per requested type, then what was removed or skipped. */
export function graphsText(r: BuildGraphsAnswer): string {
  const lines: string[] = [];
  if (r.temporal !== undefined) {
    lines.push(`Temporal graph: ${r.temporal} new edge(s), ${r.temporalTotal ?? 0} total.`);
    if ((r.temporalRemoved ?? 0) > 0)
      lines.push(
        `Temporal: ${r.temporalRemoved} stale edge(s) removed (ends no longer consecutive).`,
      );
  }
  if (r.semantic !== undefined) {
    lines.push(`Semantic graph: ${r.semantic} new edge(s), ${r.semanticTotal ?? 0} total.`);
    const d = r.semanticDocuments;
    if ((r.semanticRemoved ?? 0) > 0)
      lines.push(
        `Semantic: ${r.semanticRemoved} edge(s) removed (no longer at or above the threshold).`,
      );
    if (d !== undefined)
      lines.push(
        `Semantic: ${d.compared} document(s) compared at threshold ${r.semanticThreshold ?? ''}${d.comparedEarlier > 0 ? ` (continuing: ${d.comparedEarlier} compared by earlier calls)` : ''}${d.skipped > 0 ? `; ${d.skipped} skipped: ${d.skippedReason ?? ''}` : ''}.`,
      );
  }
  return lines.join('\n');
}

const signed = (d: { added: string[]; removed: string[] }): string =>
  [...d.added.map((x) => `+${x}`), ...d.removed.map((x) => `−${x}`)].join(' ');

function evolutionLine(e: EvolutionEntry): string {
  const t = e.trigger;
  const by = t === null ? 'unknown trigger' : `${t.docid} ${t.collection}/${t.path} "${t.title}"`;
  const parts = [
    signed(e.keywords) === '' ? '' : `keywords ${signed(e.keywords)}`,
    signed(e.tags) === '' ? '' : `tags ${signed(e.tags)}`,
    e.context === null ? '' : `context "${e.context.before}" → "${e.context.after}"`,
  ].filter((p) => p !== '');
  return `${e.at} ${e.rewrite ? 'rewritten' : `← ${by}`}: ${parts.join('; ')}`;
}

export const evolutionText = (r: EvolutionStatus): string =>
  [
    `${r.document.docid} ${r.document.collection}/${r.document.path}: ${r.message}`,
    ...(r.note === null
      ? []
      : [
          `now: keywords ${r.note.keywords.join(', ') || '(none)'}; tags ${r.note.tags.join(', ') || '(none)'}; context "${r.note.context}"`,
        ]),
    ...r.entries.map(evolutionLine),
    ...(r.truncated
      ? [`(${r.total - r.entries.length} older entr(ies) not shown; raise limit)`]
      : []),
  ].join('\n');

export function graphTools(core: Core): VaultTool[] {
  const v = core.vault;
  /** Where a semantic pass stopped by its budget continues, per vault and threshold. */
  const resume = new Map<string, number>();
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
    vaultTool({
      name: 'build_graphs',
      description:
        "Build the vault's temporal backbone (each active document → the next by effective time) and semantic graph (document pairs whose whole-document vectors reach semantic_threshold in cosine). Idempotent: temporal/semantic count edges newly written (a rebuild over an unchanged corpus writes 0), temporalTotal/semanticTotal the edges whose two ends are active. Stale built edges are removed. Only the requested graph_types appear. A semantic pass longer than 120 s stops and says so; calling again continues it.",
      input: buildGraphsInput,
      annotations: {
        title: 'Build the document graphs',
        ...IDEMPOTENT_WRITE,
      },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const at = `${vault}@${a.semantic_threshold}`;
        const r = await buildGraphs(v.deps, vault, a, { after: resume.get(at) });
        const next = r.semanticDocuments?.next ?? null;
        if (next === null) resume.delete(at);
        else resume.set(at, next);
        return { text: graphsText(r), data: { ...r } };
      },
    }),
    vaultTool({
      name: 'memory_evolution_status',
      description:
        "How a document's A-MEM note (keywords, tags, context) evolved as related documents arrived: entries newest first with their time, the trigger document and what changed (keywords and tags added/removed, context before → after). Says when the note never evolved, or when the document has no note yet.",
      input: evolutionStatusInput,
      annotations: { title: 'A document’s note evolution', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await evolutionStatus(v.store, vault, a);
        return { text: evolutionText(r), data: { vault, ...r } };
      },
    }),
  ];
}
