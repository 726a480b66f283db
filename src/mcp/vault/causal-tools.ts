// cairn-vault's find_causal_links. Thin: resolve the vault, run the traversal, render each edge
// with its witnesses, then hold the whole serialized result (text and structuredContent
// together) to 64 KiB by dropping whole edges from the tail of the spec's order in both copies.
import type { Core } from '../../core/index.js';
import {
  type CausalLink,
  type CausalTraversal,
  type CausalWitness,
  findCausalLinks,
  findCausalLinksInput,
} from '../../vault/index.js';
import { contextResult } from '../context/format.js';
import { READ_ONLY, type VaultOutput, type VaultTool, vaultTool } from './vault-tool.js';

/** The serialized tool result (text and structured copies together) is at most this. */
export const CAUSAL_RESULT_MAX_BYTES = 65_536;

const quote = (s: string | null): string => JSON.stringify(s ?? '');

function witnessLines(w: CausalWitness): string[] {
  if (w.legacy)
    return [
      `   - legacy witness from the edge (no stored fact pair), confidence ${w.confidence}: ${w.reasoning}`,
    ];
  return [
    `   - facts ${w.sourceFactOrdinal ?? '?'} → ${w.targetFactOrdinal ?? '?'}, confidence ${w.confidence}: ${w.reasoning}`,
    `     source: ${quote(w.sourceFact)}`,
    `     target: ${quote(w.targetFact)}`,
  ];
}

function linkLines(l: CausalLink, i: number): string[] {
  const via = `depth ${l.depth}, ${l.direction} from ${l.predecessorDocId}`;
  return [
    `${i + 1}. ${l.sourceDocId} ${l.sourcePath} → ${l.targetDocId} ${l.targetPath} (${via}; weight ${l.weight}; ${l.origin}; evidence ×${l.evidenceCount}${l.evidenceCapped ? '+' : ''})`,
    ...l.witnesses.flatMap(witnessLines),
  ];
}

/** The tool output holding the first `keep` links of the traversal. */
function outputOf(vault: string, t: CausalTraversal, keep: number): VaultOutput {
  const links = t.links.slice(0, keep);
  const droppedForSize = t.links.length - links.length;
  const reasons = [
    ...(t.budgetTruncated ? ['edge-budget'] : []),
    ...(droppedForSize > 0 ? ['size-cap'] : []),
  ];
  const head = [
    `${t.message} from ${t.reference.docId} ${t.reference.path} (direction ${t.direction}, depth ≤ ${t.depth})`,
    ...(droppedForSize > 0
      ? [
          `TRUNCATED: ${droppedForSize} more link(s) dropped to keep the result within ${CAUSAL_RESULT_MAX_BYTES} bytes`,
        ]
      : []),
    ...(links.some((l) => l.depth > 1)
      ? ['records past depth 1 are per-edge evidence along the walk, not a verified causal chain']
      : []),
  ];
  return {
    text: [...head, ...links.flatMap(linkLines)].join('\n'),
    data: {
      vault,
      ...t,
      links,
      truncated: reasons.length > 0,
      truncatedReasons: reasons,
      droppedForSize,
    },
  };
}

const bytes = (out: VaultOutput): number =>
  Buffer.byteLength(JSON.stringify(contextResult(out)), 'utf8');

/**
 * The output with as many links as fit CAUSAL_RESULT_MAX_BYTES, dropped from the tail. The size
 * grows with every link kept, so the largest fitting count is found by bisection.
 */
export function cappedCausalOutput(vault: string, t: CausalTraversal): VaultOutput {
  const all = outputOf(vault, t, t.links.length);
  if (bytes(all) <= CAUSAL_RESULT_MAX_BYTES) return all;
  let [fits, over] = [0, t.links.length];
  while (over - fits > 1) {
    const mid = Math.floor((fits + over) / 2);
    if (bytes(outputOf(vault, t, mid)) <= CAUSAL_RESULT_MAX_BYTES) fits = mid;
    else over = mid;
  }
  return outputOf(vault, t, fits);
}

export function causalTools(core: Core): VaultTool[] {
  const v = core.vault;
  return [
    vaultTool({
      name: 'find_causal_links',
      description:
        'Directed causal edges around a document (docid or path), breadth-first up to depth (1-10, default 5) in direction causes, caused_by or both. Each record is the physical edge (sourceDocId → targetDocId) with its traversal provenance (predecessorDocId, depth, direction), up to 3 fact-pair witnesses strongest first and evidenceCount; an edge without stored witnesses shows one legacy witness from its metadata. One 50-edge budget across both directions, the whole result within 64 KiB; truncated says when edges were left out. Records past depth 1 are per-edge evidence, not a verified chain. Not filtered by the internal-collection policy.',
      input: findCausalLinksInput,
      annotations: { title: 'Find causal links', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const t = await findCausalLinks(v.store, vault, a);
        return cappedCausalOutput(vault, t);
      },
    }),
  ];
}
