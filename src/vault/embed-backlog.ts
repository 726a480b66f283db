// The fragment embedding backlog: fragments of active vault documents without a vector from the
// current model, embedded in the background by the shared loop (src/embed), off the request
// path, in bounded batches. A sync or a save only has to wake it. The SQL is the store's.
import {
  type BacklogEmbedder,
  createEmbedBacklog,
  type EmbedBacklog,
  type EmbedBacklogSource,
  type RunOnce,
} from '../embed/index.js';
import type { Store, VaultFragmentToEmbed } from '../store/index.js';

export interface VaultEmbedWorkerOptions {
  store: Store;
  embedder: BacklogEmbedder;
  /** Fragments per embedding call (default 16). */
  batchSize?: number;
  /** Rest after each batch, as a multiple of its time (default 0; see createEmbedBacklog). */
  restRatio?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
  /** The corpus's run-once lock (see createEmbedBacklog): one process embeds at a time. */
  runOnce?: RunOnce;
}

/** What a fragment is embedded as: its document's title, its heading path, its text. */
export function fragmentEmbedText(f: VaultFragmentToEmbed): string {
  return [f.title, f.headingPath, f.text].filter((s) => s.trim() !== '').join('\n');
}

function fragmentSource(store: Store): EmbedBacklogSource {
  const ix = store.vaultIndex;
  return {
    top: () => ix.maxFragmentId(),
    async next(model, after, limit) {
      const rows = await ix.fragmentsToEmbed(model, after, limit);
      return rows.map((r) => ({ id: r.id, text: fragmentEmbedText(r) }));
    },
    put: (model, rows) =>
      store.write((tx) =>
        ix.putVectors(
          tx,
          model,
          rows.map((r) => ({ fragmentId: r.id, vector: r.vector })),
        ),
      ),
    pending: (model) => ix.pendingVectors(model),
  };
}

/** Creates (but does not start) the fragment embedding backlog. Call wake() after a sync. */
export function createVaultEmbedWorker(options: VaultEmbedWorkerOptions): EmbedBacklog {
  const { store, ...rest } = options;
  return createEmbedBacklog({ ...rest, source: fragmentSource(store) });
}
