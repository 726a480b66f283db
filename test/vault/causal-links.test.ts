// find_causal_links through a real SDK client on a real store: directions and depth, at most 3
// witnesses with an honest evidenceCount, the legacy witness of a declared edge, the shared
// 50-edge budget, the 64 KiB cap on the whole serialized result, and refused arguments.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { upsertVaultEdge } from '../../src/store/index.js';
import type { CausalTraversal } from '../../src/vault/index.js';
import { callErr, callInvalid } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup();
});
afterEach(() => s.close());

type Answer = CausalTraversal & {
  truncated: boolean;
  truncatedReasons: string[];
  droppedForSize: number;
};
const links = (args: Record<string, unknown>) =>
  callVault<Answer>(s.client, 'find_causal_links', args);

const PAD =
  'and the platform group reviewed the rollout notes in every region with great care over several long weeks of meetings, design reviews, load tests, dry runs and careful staged rehearsals before the change went live across the whole fleet of ingest hosts';
const TEAMS = ['north', 'south', 'east', 'west'];

/**
 * hub/h.md names `n` causes (factor k, stated once per team by src/sk.md) and states `n`
 * causes (widget k) that eff/uk.md name: n edges into the hub and n out of it.
 */
function hub(n: number, long: boolean, teams = TEAMS): void {
  const files: Record<string, string> = {};
  const hubLines: string[] = [];
  for (let k = 1; k <= n; k += 1) {
    hubLines.push(`Failure ${k} happened because of factor ${k}.`, `The team adopted widget ${k}.`);
    files[`src/s${k}.md`] = teams
      .map((t) => `Team ${t} adopted factor ${k}${long ? `, ${PAD}` : ''}.`)
      .join('\n\n');
    files[`eff/u${k}.md`] = `Outage ${k} happened because of widget ${k}.\n`;
  }
  files['hub/h.md'] = `# Hub\n\n${hubLines.join('\n\n')}\n`;
  writeNotes(s.notes.path, files);
}

async function documentOf(path: string): Promise<{ id: number; docid: string }> {
  const r = await callVault<{ document: { id: number; docid: string } }>(s.client, 'get', {
    file: path,
  });
  return r.data.document;
}

describe('find_causal_links', () => {
  it('follows one direction or both, to the depth asked, and says what lies past it', async () => {
    hub(2, false);
    await s.sync();
    const both = await links({ docid: 'hub/h.md', depth: 1 });
    expect(
      both.data.links.map((l) => `${l.direction} ${l.sourcePath}>${l.targetPath}`).sort(),
    ).toEqual([
      'caused_by src/s1.md>hub/h.md',
      'caused_by src/s2.md>hub/h.md',
      'causes hub/h.md>eff/u1.md',
      'causes hub/h.md>eff/u2.md',
    ]);
    expect(both.data).toMatchObject({ truncated: false, moreBeyondDepth: false, depth: 1 });
    const causes = await links({ docid: 'hub/h.md', direction: 'causes' });
    expect(causes.data.links.map((l) => l.targetPath).sort()).toEqual(['eff/u1.md', 'eff/u2.md']);
    const from = await links({ docid: 'src/s1.md', direction: 'causes', depth: 1 });
    expect(from.data.links).toHaveLength(1);
    expect(from.data.moreBeyondDepth).toBe(true);
    expect(from.text).toMatch(/more edges continue past the depth limit/);
    const deep = await links({ docid: 'src/s1.md', direction: 'causes', depth: 2 });
    expect(deep.data.links.map((l) => [l.depth, l.sourcePath, l.targetPath])).toEqual([
      [1, 'src/s1.md', 'hub/h.md'],
      expect.arrayContaining([2, 'hub/h.md']),
      expect.arrayContaining([2, 'hub/h.md']),
    ]);
    expect(deep.data.links[1]?.predecessorDocId).toBe(`#${(await documentOf('hub/h.md')).docid}`);
    const none = await links({ docid: 'src/s1.md', direction: 'caused_by' });
    expect(none.data.links).toEqual([]);
    expect(none.data.message).toMatch(
      /no causal links in direction caused_by; .* direction causes/,
    );
  });

  it('shows at most 3 witnesses, strongest first, and counts every stored pair', async () => {
    hub(1, false);
    await s.sync();
    const r = await links({ docid: 'hub/h.md', direction: 'caused_by' });
    const l = r.data.links[0];
    expect(l?.evidenceCount).toBe(4);
    expect(l?.witnesses).toHaveLength(3);
    expect(l?.witnesses.map((w) => [w.sourceFactOrdinal, w.targetFactOrdinal])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(l?.evidenceCapped).toBe(false);
    expect(r.text).toMatch(/evidence ×4\)/);
  });

  it('stores at most 32 pairs per edge and says the count is capped', async () => {
    hub(1, false);
    const many = Array.from({ length: 40 }, (_, k) => `Team t${k} adopted factor 1.`);
    writeNotes(s.notes.path, { 'src/many.md': many.join('\n\n') });
    await s.sync();
    const r = await links({ docid: 'src/many.md', direction: 'causes', depth: 1 });
    expect(r.data.links[0]).toMatchObject({ evidenceCount: 32, evidenceCapped: true });
    expect(r.text).toMatch(/evidence ×32\+\)/);
  });

  it('synthesizes one legacy witness for an edge stored without any, when its metadata is valid', async () => {
    hub(1, false);
    await s.sync();
    const [a, b, c] = await Promise.all(
      ['eff/u1.md', 'src/s1.md', 'hub/h.md'].map((p) => documentOf(p)),
    );
    if (a === undefined || b === undefined || c === undefined) throw new Error('fixture');
    await s.core.store.write(async (tx) => {
      const edge = { vault: 'default', type: 'causal', origin: 'declared', weight: 1 } as const;
      await upsertVaultEdge(
        tx,
        {
          ...edge,
          sourceId: a.id,
          targetId: b.id,
          reasoning: 'frontmatter: caused_by',
          confidence: 0.8,
        },
        1,
      );
      await upsertVaultEdge(tx, { ...edge, sourceId: c.id, targetId: b.id, reasoning: null }, 1);
    });
    const r = await links({ docid: 'src/s1.md', direction: 'caused_by' });
    const declared = r.data.links.filter((l) => l.origin === 'declared');
    expect(declared.map((l) => [l.sourcePath, l.evidenceCount, l.witnesses])).toEqual([
      [
        'eff/u1.md',
        0,
        [
          expect.objectContaining({
            legacy: true,
            sourceFactOrdinal: null,
            sourceFact: null,
            reasoning: 'frontmatter: caused_by',
            confidence: 0.8,
          }),
        ],
      ],
      ['hub/h.md', 0, []],
    ]);
    expect(r.text).toMatch(/legacy witness from the edge .*frontmatter: caused_by/);
  });

  it('spends one 50-edge budget across both directions and says edges were left out', async () => {
    hub(30, false, ['north']);
    await s.sync();
    const r = await links({ docid: 'hub/h.md' });
    expect(r.data.links).toHaveLength(50);
    expect(r.data).toMatchObject({
      truncated: true,
      truncatedReasons: ['edge-budget'],
      droppedForSize: 0,
    });
    expect(new Set(r.data.links.map((l) => l.direction))).toEqual(new Set(['causes', 'caused_by']));
    const one = await links({ docid: 'hub/h.md', direction: 'caused_by' });
    expect(one.data.links).toHaveLength(30);
    expect(one.data).toMatchObject({ truncated: false, truncatedReasons: [] });
  });

  it('is not truncated when the budget holds every edge exactly', async () => {
    hub(25, false, ['north']);
    await s.sync();
    const r = await links({ docid: 'hub/h.md' });
    expect(r.data.links).toHaveLength(50);
    expect(r.data).toMatchObject({
      truncated: false,
      truncatedReasons: [],
      moreBeyondDepth: false,
    });
  });

  it('holds the whole serialized result to 64 KiB, the same edges in both copies', async () => {
    hub(30, true);
    await s.sync();
    const result = await s.client.callTool({
      name: 'find_causal_links',
      arguments: { docid: 'hub/h.md' },
    });
    expect(Buffer.byteLength(JSON.stringify(result), 'utf8')).toBeLessThanOrEqual(65_536);
    const data = result.structuredContent as Answer;
    expect(data.droppedForSize).toBeGreaterThan(0);
    expect(data.links.length + data.droppedForSize).toBe(50);
    expect(data).toMatchObject({ truncated: true, truncatedReasons: ['edge-budget', 'size-cap'] });
    const content = result.content as { type: string; text: string }[];
    const text = content[0]?.text ?? '';
    const heads = text.split('\n').filter((line) => /^\d+\. #/.test(line));
    expect(heads.map((h) => h.split(' ').slice(1, 5).join(' '))).toEqual(
      data.links.map((l) => `${l.sourceDocId} ${l.sourcePath} → ${l.targetDocId}`),
    );
    expect(text).toMatch(
      /TRUNCATED: \d+ more link\(s\) dropped to keep the result within 65536 bytes/,
    );
  });

  it('refuses bad arguments by field and names an unknown document', async () => {
    for (const depth of [0, 11, 2.5, 'x'])
      expect(await callInvalid(s.client, 'find_causal_links', { docid: 'a.md', depth })).toMatch(
        /depth/,
      );
    expect(
      await callInvalid(s.client, 'find_causal_links', { docid: 'a.md', direction: 'up' }),
    ).toMatch(/direction must be one of causes, caused_by, both/);
    expect(await callInvalid(s.client, 'find_causal_links', { docid: '' })).toMatch(/docid/);
    expect(await callInvalid(s.client, 'find_causal_links', {})).toMatch(/docid/);
    await s.sync();
    const missing = await callErr(s.client, 'find_causal_links', { docid: 'nope.md' });
    expect(missing.text).toMatch(/no document nope\.md/);
  });
});
