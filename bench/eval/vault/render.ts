// Markdown for the `vault` eval section of docs/benchmarks.md: the modes against the plain BM25
// baseline (overall, held-out half, latency), per category, the stage ablations and the
// target check (query MRR above the baseline's).
import { type MachineInfo, mdTable } from '../../lib/report.js';
import type { ModeResult } from './modes.js';
import type { ModeMetrics } from './score.js';
import type { Attempt } from './tune.js';

export const TARGET = { mode: 'query', baseline: 'bm25 baseline' } as const;

export interface VaultEvalReport {
  eval: 'vault';
  machine: MachineInfo;
  config: {
    data: string;
    quick: boolean;
    conversations: number;
    tuneConversations: number;
    documents: number;
    questions: number;
    embedModel: string;
    /** 'on', or 'off: <why>'. */
    vectors: string;
  };
  ingest: {
    syncMs: number;
    documents: number;
    fragments: number;
    embedMs: number;
    embedded: number;
    embedComplete: boolean;
  };
  modes: ModeResult[];
  attempts: Attempt[];
  /** The point the ladder chose on the tuning half. */
  chosen: string;
  minGain: number;
}

const f3 = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(3));
const ms = (x: number | undefined): string => (x === undefined ? '–' : `${x} ms`);
const CATEGORIES = [
  ['1', 'multi-hop'],
  ['2', 'temporal'],
  ['3', 'open-domain'],
  ['4', 'single-hop'],
] as const;

const all = (m: ModeResult): ModeMetrics | undefined => m.metrics['all'];

function headline(modes: readonly ModeResult[]): string {
  return mdTable(
    ['Mode', 'MRR', 'hit@1', 'hit@5', 'MRR tune half', 'MRR held-out half', 'p50', 'p99'],
    modes.map((m) => [
      m.mode,
      f3(all(m)?.mrr),
      f3(all(m)?.hit1),
      f3(all(m)?.hit5),
      f3(m.split.tune.mrr),
      f3(m.split.test.mrr),
      ms(all(m)?.p50Ms),
      ms(all(m)?.p99Ms),
    ]),
  );
}

function perCategory(modes: readonly ModeResult[]): string {
  return mdTable(
    ['Mode', ...CATEGORIES.map(([c, name]) => `MRR ${c} ${name} (n)`)],
    modes.map((m) => [
      m.mode,
      ...CATEGORIES.map(([c]) => `${f3(m.metrics[c]?.mrr)} (${m.metrics[c]?.questions ?? 0})`),
    ]),
  );
}

/** Whether query beats the baseline on MRR, as a sentence. */
export function targetLine(r: VaultEvalReport): string {
  const q = r.modes.find((m) => m.mode === TARGET.mode);
  const b = r.modes.find((m) => m.mode === TARGET.baseline);
  if (q === undefined || b === undefined)
    return '**Target** (query MRR > plain BM25): not measured.';
  const qm = all(q)?.mrr ?? 0;
  const bm = all(b)?.mrr ?? 0;
  const met = qm > bm;
  return `**Target** (\`query\` MRR above plain BM25's in the same run): **${met ? 'met' : 'not met'}** — query ${f3(qm)} against ${f3(bm)} over all ${r.config.questions} questions (held-out half ${f3(q.split.test.mrr)} against ${f3(b.split.test.mrr)}).`;
}

function stageLines(r: VaultEvalReport): string[] {
  const full = r.modes.find((m) => m.mode === 'query: full (in process)');
  if (full === undefined) return [];
  const base = all(full)?.mrr ?? 0;
  return r.modes
    .filter((m) => m.kind === 'ablation' && m !== full)
    .map((m) => {
      const d = base - (all(m)?.mrr ?? 0);
      return `- ${m.mode}: MRR ${f3(all(m)?.mrr)}, so the stage${m.mode.includes(' and ') ? 's' : ''} switched off add${m.mode.includes(' and ') ? '' : 's'} ${d >= 0 ? '+' : ''}${d.toFixed(3)} (held-out half ${f3(full.split.test.mrr)} against ${f3(m.split.test.mrr)}).`;
    });
}

function ladder(r: VaultEvalReport): string {
  return mdTable(
    ['Stage', 'Change', 'MRR tune', 'MRR held-out', 'MRR all', 'hit@1 all', 'hit@5 all'],
    r.attempts.map((a) => [
      a.stage,
      `${a.change}${a.grid === undefined ? '' : ` (${a.grid} tried)`}`,
      f3(a.tune.mrr),
      f3(a.test.mrr),
      f3(a.all.mrr),
      f3(a.all.hit1),
      f3(a.all.hit5),
    ]),
    2,
  );
}

/** The eval section, from `## Vault retrieval (LoCoMo)` down. */
export function renderVaultEval(r: VaultEvalReport): string {
  const m = r.machine;
  const i = r.ingest;
  const tools = r.modes.filter((x) => x.kind !== 'ablation');
  const ablations = r.modes.filter((x) => x.kind === 'ablation');
  const retrieve = r.modes.find((x) => x.mode === 'memory_retrieve');
  const routes =
    retrieve?.routes === undefined
      ? ''
      : ` memory_retrieve routed ${Object.entries(retrieve.routes)
          .map(([route, n]) => `${n} to ${route}`)
          .join(', ')}.`;
  const vectors =
    r.config.vectors === 'on'
      ? `Vectors: ${r.config.embedModel}, ${i.embedded} fragments embedded in ${(i.embedMs / 1000).toFixed(1)} s${i.embedComplete ? '' : ' (the backlog was cut at its time bound: some fragments have no vector)'}.`
      : `**Vectors: ${r.config.vectors}** — vsearch and the vector legs did not run.`;
  return [
    '## Vault retrieval (LoCoMo)',
    '',
    `\`npm run eval -- vault\` (\`--quick\`: the first 3 conversations, docs untouched). LoCoMo (\`${r.config.data}\`, read in place, never copied): each of ${r.config.conversations} conversations is one vault whose documents are its sessions as dated markdown (${r.config.documents} documents), synced with \`vault_sync\` through a real cairn-vault server (SDK client over the in-memory transport, \`createCore\` on a temp database); ${r.config.questions} questions of categories 1–4, gold = the sessions holding the evidence turns, judged by result paths. Every tool is called with \`limit\` 10 and \`compact\` true; the plain BM25 baseline (whole documents, k1 1.2, b 0.75, terms ORed) runs in memory in the same run. The ablations call the query tool's domain function (\`queryVault\`, the \`query\` weight profile) in process with one stage replaced by a no-op; the full row checks it against the tool. Tuning halves: the first ${r.config.tuneConversations} conversations tune, the rest are held out.`,
    '',
    headline(tools),
    '',
    targetLine(r),
    '',
    '### Per category (MRR)',
    '',
    perCategory(tools),
    '',
    '### What each query stage adds',
    '',
    headline(ablations),
    '',
    ...stageLines(r),
    '',
    '### Attempts',
    '',
    `The query pipeline's defaults, searched stage by stage (fusion, then expansion, then rerank) on the tuning half only, each grid from the point the previous stage left; a grid's best replaced the current point only when it beat it by at least ${r.minGain} MRR on the tuning half. The held-out half never chose. Chosen: ${r.chosen}. The **product** row is what src/vault/query ships, and what the tool rows above ran.`,
    '',
    ladder(r),
    '',
    `${vectors} Sync ${i.documents} documents, ${i.fragments} fragments in ${(i.syncMs / 1000).toFixed(1)} s.${routes} Measured ${m.date.slice(0, 10)}, ${m.cpus} × ${m.cpuModel}, Node ${m.node}, load ${m.loadAvg1m}, commit ${m.commit}.`,
  ].join('\n');
}
