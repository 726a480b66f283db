// The model extraction backlog: active vault documents whose current content the configured
// model has not yet read, handled one at a time in the background, off the request path and
// outside any write transaction (a sync writes the deterministic facts at once and only wakes
// this). A valid answer replaces the document's facts; a failure keeps the deterministic ones
// and records why. Each pass visits a document at most once; a failure is retried on a later
// pass until MAX_EXTRACTION_ATTEMPTS. A pass runs under the store's run-once lock, so across
// replicas one process reads the backlog at a time. The SQL is the store's.
import type { ExtractedFact } from '../graph/extract/index.js';
import { passLoop } from '../shared/index.js';
import {
  documentsToExtract,
  documentUnchanged,
  extractionTotals,
  pendingExtractions,
  recordExtraction,
  type Store,
  type VaultExtractionTodo,
  type VaultExtractionTotals,
} from '../store/index.js';
import { factText, writeDocumentFacts } from './facts.js';
import { type DocumentFactExtractor, failureReason } from './query/providers/index.js';

/** Attempts per document and content before it counts as failed for good. */
export const MAX_EXTRACTION_ATTEMPTS = 3;

export interface VaultExtractWorkerOptions {
  store: Store;
  extractor: DocumentFactExtractor;
  now?: () => number;
  /** Documents read per scan (default 8). */
  batchSize?: number;
  /** A pass that failed outside the provider (the store). */
  onError?: (err: unknown) => void;
}

export interface VaultExtractBacklog {
  /** The extractor's name (`openai:gpt-4o-mini`), recorded with the facts it wrote. */
  readonly extractor: string;
  /** Schedules a pass (cheap; coalesces). */
  wake(): void;
  /**
   * Runs passes until nothing is pending (failures exhaust their attempts); resolves with how
   * many documents were attempted. @throws a store error that ended a pass.
   */
  drain(): Promise<number>;
  /** Documents (of `vault`, else all) still waiting for the model. */
  pending(vault?: string): Promise<number>;
  /** Pending, done and failed documents of `vault`, and the failure reasons. */
  totals(vault: string): Promise<VaultExtractionTotals>;
  /** Ends the loop; an answer still in flight is ignored. */
  stop(): Promise<void>;
}

/** How long drain() waits before looking again while another process holds the pass. */
const HELD_ELSEWHERE_MS = 100;

type Outcome = { facts: ExtractedFact[]; dropped: number } | { reason: string };

/** Creates (but does not start) the backlog. Call wake() after a sync. */
export function createVaultExtractWorker(options: VaultExtractWorkerOptions): VaultExtractBacklog {
  const { store, extractor } = options;
  const now = options.now ?? Date.now;
  const batchSize = options.batchSize ?? 8;
  const limits = { extractor: extractor.name, maxAttempts: MAX_EXTRACTION_ATTEMPTS };
  let stopped = false;
  let onStop: (() => void) | undefined;
  const stopping = new Promise<void>((resolve) => (onStop = resolve));

  async function ask(doc: VaultExtractionTodo): Promise<Outcome | null> {
    const asked = extractor.extract(factText(doc.content)).then(
      (r): Outcome => r,
      (err: unknown): Outcome => ({ reason: failureReason(err) }),
    );
    return Promise.race([asked, stopping.then(() => null)]);
  }

  async function one(doc: VaultExtractionTodo): Promise<void> {
    const outcome = await ask(doc);
    if (outcome === null || stopped) return;
    const at = now();
    await store.write(async (tx) => {
      // The document changed (or left) while the model read it: its new content waits anew.
      if (!(await documentUnchanged(tx, doc.id, doc.contentHash))) return;
      const ok = 'facts' in outcome;
      if (ok) {
        const target = { vault: doc.vault, id: doc.id, at: doc.modifiedAt, now: at };
        await writeDocumentFacts(store, tx, target, outcome.facts);
      }
      await recordExtraction(
        tx,
        {
          documentId: doc.id,
          extractor: extractor.name,
          contentHash: doc.contentHash,
          status: ok ? 'done' : 'failed',
          reason: ok ? null : outcome.reason,
          facts: ok ? outcome.facts.length : 0,
          dropped: ok ? outcome.dropped : 0,
        },
        at,
      );
    });
  }

  /** One pass over the waiting documents, ascending, each at most once. */
  async function pass(): Promise<number> {
    let cursor = 0;
    let total = 0;
    while (!stopped) {
      const rows = await documentsToExtract(store, { ...limits, after: cursor, limit: batchSize });
      if (rows.length === 0) break;
      for (const row of rows) {
        if (stopped) break;
        await one(row);
        total += 1;
        cursor = row.id;
      }
    }
    return total;
  }

  /** The last pass was skipped: another process holds the backlog's lock. */
  let skipped = false;
  const lockedPass = async (): Promise<number> => {
    const done = await store.locks.tryRun('vault:extract', pass);
    skipped = !done.ran;
    return done.ran ? done.value : 0;
  };

  const loop = passLoop({
    pass: lockedPass,
    stopped: () => stopped,
    failed: 'extraction pass failed',
    onError: options.onError,
  });
  const run = (): Promise<number> => loop.run();

  const pending = (vault?: string): Promise<number> =>
    pendingExtractions(store, { ...limits, vault });

  return {
    extractor: extractor.name,
    wake: () => {
      if (!stopped) void run();
    },
    async drain() {
      let total = 0;
      // Each pass tries every waiting document once, so attempts bound the passes needed.
      for (let round = 0; round <= MAX_EXTRACTION_ATTEMPTS && !stopped; round++) {
        if ((await pending()) === 0) break;
        total += await run();
        if (loop.failure() !== undefined) throw loop.failure();
        // Another process is reading the backlog: wait for it rather than use up a round.
        if (skipped) {
          round -= 1;
          await new Promise((r) => setTimeout(r, HELD_ELSEWHERE_MS));
        }
      }
      return total;
    },
    pending,
    totals: (vault) => extractionTotals(store, { ...limits, vault }),
    async stop() {
      stopped = true;
      onStop?.();
      await loop.current();
    },
  };
}
