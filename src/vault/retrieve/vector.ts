// The vault's vector channel: the query embedded once, fragment neighbours deduplicated to
// documents, the scan deepened until `limit` documents the filter admits are found or the cap
// is reached, and the spec's degraded marker when the cap left the answer short: the excluded
// documents account for the shortfall ("excluded-dominant") or fragment dedup does
// ("cap-truncation"). A short answer from a scan that saw everything carries no marker.
import type { VaultFilter, VaultIndex } from '../../store/index.js';
import { bestPerDocument, type FragmentHit } from './candidates.js';

/** What the vault needs of an embedder. */
export interface VaultEmbedder {
  readonly model: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export type DegradedReason = 'excluded-dominant' | 'cap-truncation';

export interface VectorDocs {
  /** Best fragment per document, most similar first (at most `limit`). */
  readonly hits: readonly FragmentHit[];
  readonly degradedReason: DegradedReason | null;
  /** Fragments scanned in the last pass. */
  readonly scanned: number;
}

/** Fragments asked of the store at most, per search. */
export const VECTOR_SCAN_CAP = 1024;
/** Neighbours the shortfall check looks at, with and without the filter's exclusions. */
const SHORTFALL_SCAN = 4096;

/**
 * The `limit` documents nearest `vector` the filter admits.
 * @param exclude documents never returned (find_similar's reference).
 */
export async function nearestDocs(
  index: VaultIndex,
  model: string,
  vector: Float32Array,
  filter: VaultFilter,
  limit: number,
  exclude: ReadonlySet<number> = new Set(),
): Promise<VectorDocs> {
  let k = Math.min(VECTOR_SCAN_CAP, Math.max(limit * 4, 32));
  for (;;) {
    const scan = await index.nearestScan(model, vector, filter, k);
    const found = scan.hits;
    const hits = bestPerDocument(
      found
        .filter((h) => !exclude.has(h.documentId))
        .map((h) => ({ ...h, score: h.cosine, snippet: '' })),
    );
    // Fewer fragments than asked for is a complete scan only when the store's own KNN did not
    // stop at its cap (filtered-out neighbours can fill that cap).
    const exhaustive = found.length < k && !scan.capped;
    if (hits.length >= limit || exhaustive) {
      return { hits: hits.slice(0, limit), degradedReason: null, scanned: found.length };
    }
    if (k >= VECTOR_SCAN_CAP || scan.capped) {
      const reason = await shortfallReason(index, model, vector, filter, limit - hits.length);
      return { hits, degradedReason: reason, scanned: found.length };
    }
    k = Math.min(VECTOR_SCAN_CAP, k * 4);
  }
}

/**
 * Why a capped scan came back short: the same scan without the filter's exclusions finds at
 * least `shortfall` more distinct documents the filter hides → excluded-dominant; otherwise
 * the cap was spent on several fragments of the same documents → cap-truncation.
 */
async function shortfallReason(
  index: VaultIndex,
  model: string,
  vector: Float32Array,
  filter: VaultFilter,
  shortfall: number,
): Promise<DegradedReason> {
  const k = SHORTFALL_SCAN;
  const open: VaultFilter = {
    ...filter,
    includeInternal: true,
    includeSnoozed: true,
    includeArchived: true,
  };
  const all = await index.nearest(model, vector, open, k);
  const admitted = new Set(
    (await index.nearest(model, vector, filter, k)).map((h) => h.documentId),
  );
  const hidden = new Set(all.map((h) => h.documentId).filter((d) => !admitted.has(d)));
  return hidden.size >= shortfall ? 'excluded-dominant' : 'cap-truncation';
}

/** Embeds `text` as a query vector. */
export async function queryVector(embedder: VaultEmbedder, text: string): Promise<Float32Array> {
  const [v] = await embedder.embed([text]);
  if (v === undefined) throw new Error('the embedder returned no vector');
  return v;
}
