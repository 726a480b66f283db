// The shared causal pipeline through a real SDK client on a real store (declared edges from a
// synced temp vault): the hop on intent_search, memory_retrieve's causal route and query_plan,
// the caps (3 per anchor, 10 in all), eligibility inside the traversal, the WHY observation
// lane (observations only, never handoffs or deductions), and enable_graph_traversal: false.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type CausalHit, saveInternal } from '../../src/vault/index.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup({ embedder: null });
});
afterEach(() => s.close());

interface Answer {
  results: CausalHit[];
  stages: Record<string, string>;
  observationLane?: string[];
  detail?: { stages: Record<string, string>; observationLane: string[] };
}

const md = (fm: string, title: string, body: string): string =>
  `${fm === '' ? '' : `---\n${fm}\n---\n`}# ${title}\n\n${body}\n`;
const call = (name: string, args: Record<string, unknown>) =>
  callVault<Answer>(s.client, name, args).then((r) => r.data);
const docid = async (path: string): Promise<string> =>
  `#${(await callVault<{ document: { docid: string } }>(s.client, 'get', { file: path })).data.document.docid}`;
/** The hop-marked results as "path: direction of anchor" lines. */
const marked = (a: { results: CausalHit[] }, names: Record<string, string> = {}): string[] =>
  a.results.flatMap((h) =>
    (h.causal ?? []).map((m) => `${h.path}: ${m.direction} of ${names[m.anchorDocid] ?? '?'}`),
  );

const CACHE = {
  'decisions/cache.md': md(
    'type: decision\ncaused_by: incidents/latency.md',
    'Cache layer',
    'We dropped the cache layer from the read path.',
  ),
  'incidents/latency.md': md('', 'Latency spike', 'P99 spiked over two seconds in march.'),
};

describe('the one-hop causal step on each caller', () => {
  beforeEach(async () => {
    writeNotes(s.notes.path, CACHE);
    await s.sync();
  });

  it('intent_search returns the cause the query does not match, marked, and not without the hop', async () => {
    const names = { [await docid('decisions/cache.md')]: 'cache' };
    const args = { query: 'why did we drop the cache layer', limit: 5 };
    const { text, data: r } = await callVault<Answer>(s.client, 'intent_search', args);
    expect(marked(r, names)).toEqual(['incidents/latency.md: cause of cache']);
    expect(text).toContain(`incidents/latency.md — Latency spike`);
    expect(text).toContain(`via the causal hop: cause of ${Object.keys(names)[0] ?? ''}`);
    expect(r.stages['graphTraversal']).toMatch(
      /^ran: \d+ anchor\(s\), 1 hop result\(s\) \(1 cause\(s\), 0 effect\(s\)\)$/,
    );
    expect(r.stages['mpfp']).toMatch(/^not run: /);
    expect(r.stages['adaptiveTraversal']).toMatch(/^not run: /);
    const off = await call('intent_search', { ...args, enable_graph_traversal: false });
    expect(off.results.map((h) => h.path)).not.toContain('incidents/latency.md');
    expect(off.results.map((h) => h.path)).toContain('decisions/cache.md');
    expect(off.stages['graphTraversal']).toBe('disabled (enable_graph_traversal: false)');
  });

  it('memory_retrieve (causal route) and query_plan return it too', async () => {
    const names = { [await docid('decisions/cache.md')]: 'cache' };
    const retrieve = await call('memory_retrieve', { query: 'why did we drop the cache layer' });
    expect(marked(retrieve, names)).toEqual(['incidents/latency.md: cause of cache']);
    const plan = await call('query_plan', {
      query: 'why did we drop the cache layer; where is the taco lunch',
    });
    expect(marked(plan, names)).toEqual(['incidents/latency.md: cause of cache']);
  });
});

describe('caps', () => {
  it('takes at most 3 new documents per anchor and 10 in all, and says what it left out', async () => {
    const files: Record<string, string> = {};
    for (let a = 1; a <= 4; a++) {
      const causes = [1, 2, 3, 4].map((c) => `  - c/a${a}-${c}.md`).join('\n');
      files[`zebra/a${a}.md`] = md(`caused_by:\n${causes}`, `Zebra ${a}`, 'Zebra crossing.');
      for (let c = 1; c <= 4; c++) files[`c/a${a}-${c}.md`] = md('', `Filler ${a} ${c}`, 'Plain.');
    }
    writeNotes(s.notes.path, files);
    await s.sync();
    const r = await call('intent_search', { query: 'zebra crossing', limit: 30 });
    const hop = r.results.filter((h) => h.causal !== undefined);
    expect(hop).toHaveLength(10);
    expect(hop.every((h) => h.path.startsWith('c/'))).toBe(true);
    const perAnchor = new Map<string, number>();
    for (const m of hop.flatMap((h) => h.causal ?? []))
      perAnchor.set(m.anchorDocid, (perAnchor.get(m.anchorDocid) ?? 0) + 1);
    expect([...perAnchor.values()].sort()).toEqual([1, 3, 3, 3]);
    expect(r.stages['graphTraversal']).toBe(
      'ran: 4 anchor(s), 10 hop result(s) (10 cause(s), 0 effect(s)); 2 more left out by the 10-result cap',
    );
  });
});

describe('eligibility inside the traversal', () => {
  it('skips archived, forgotten and internal neighbours without spending their slots', async () => {
    const effect = md('caused_by: decisions/elk.md', 'Effect', 'Plain.');
    writeNotes(s.notes.path, {
      'decisions/elk.md': md(
        'type: decision\ncaused_by: [e/e1.md, e/e2.md, e/e3.md]',
        'Elk migration',
        'We chose the elk migration.',
      ),
      ...{ 'e/e1.md': md('', 'One', 'Plain.'), 'e/e2.md': md('', 'Two', 'Plain.') },
      ...{ 'e/e3.md': md('', 'Three', 'Plain.'), 'e/e4.md': effect },
      ...{ 'e/e5.md': effect, 'e/e6.md': effect },
    });
    await s.sync();
    const { store, scrubber } = s.core.vault;
    await saveInternal(store, scrubber, 'default', {
      ...{ kind: 'handoff', title: 'Handoff', content: 'Plain handoff.', base: 'handoffs/elk' },
      frontmatter: { caused_by: 'decisions/elk.md' },
    });
    const [e1] = await store.vaultIndex.documentsAtPath('default', 'e/e1.md');
    await store.write((tx) => store.vaultIndex.archive(tx, 'default', [e1?.id ?? 0], Date.now()));
    await call('memory_forget', { query: 'e/e2.md', confirm: true });
    const names = { [await docid('decisions/elk.md')]: 'elk' };
    const r = await call('memory_retrieve', { query: 'why did we choose the elk migration' });
    expect(marked(r, names)).toEqual([
      'e/e3.md: cause of elk',
      'e/e4.md: effect of elk',
      'e/e5.md: effect of elk',
    ]);
    const everything = await call('intent_search', { query: 'elk migration', limit: 30 });
    expect(marked(everything, names)).toHaveLength(3);
    expect(marked(everything, names)).not.toContain('e/e1.md: cause of elk');
  });
});

describe('the WHY observation lane', () => {
  it('anchors into _clawmem observations only and follows their causal edges', async () => {
    writeNotes(s.notes.path, {
      'incidents/disk.md': md('', 'Disk full', 'The storage host ran out of space.'),
      'incidents/power.md': md('', 'Power cut', 'The rack lost power.'),
      'incidents/fan.md': md('', 'Fan failure', 'A cooling fan stopped.'),
    });
    await s.sync();
    const { store, scrubber } = s.core.vault;
    const save = (kind: 'observation' | 'handoff' | 'deduction', cause: string) =>
      saveInternal(store, scrubber, 'default', {
        ...{
          kind,
          title: `Nightly backup ${kind}`,
          content: `The nightly backup failed (${kind}).`,
        },
        frontmatter: { caused_by: cause },
      });
    const obs = await save('observation', 'incidents/disk.md');
    await save('handoff', 'incidents/power.md');
    await save('deduction', 'incidents/fan.md');
    const names = { [`#${obs.docid}`]: 'observation' };
    const query = 'why did the nightly backup fail';
    const r = await call('memory_retrieve', { query, mode: 'causal' });
    expect(marked(r, names)).toEqual(['incidents/disk.md: cause of observation']);
    expect(r.detail?.observationLane).toEqual([`#${obs.docid}`]);
    expect(r.detail?.stages['whyLane']).toBe('ran: 1 observation anchor(s)');
    const paths = r.results.map((h) => h.path);
    expect(paths).not.toContain('incidents/power.md');
    expect(paths).not.toContain('incidents/fan.md');
    expect(paths.filter((p) => p.startsWith('handoffs/') || p.startsWith('deductions/'))).toEqual(
      [],
    );
    const plan = await call('query_plan', { query });
    expect(marked(plan, names)).toEqual(['incidents/disk.md: cause of observation']);
    const direct = await call('intent_search', { query });
    expect(direct.stages['whyLane']).toMatch(/^not run: this caller has no WHY lane/);
  });
});
