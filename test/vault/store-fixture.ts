// A vault store for domain tests: a real store (SQLite, or PostgreSQL on the postgres project),
// documents written through the store's vault operations (one whole-document fragment each),
// vectors from a two-axis stub embedder.
import { INTERNAL_COLLECTION, type Store, type VaultFilter } from '../../src/store/index.js';
import type { RetrieveDeps } from '../../src/vault/retrieve/search.js';
import type { VaultEmbedder } from '../../src/vault/retrieve/vector.js';
import { tempStore } from '../store-backends.js';

export const NOW = Date.UTC(2026, 11, 1);
export const DAY = 86_400_000;
const AXES = [/queue|retry|backoff|letter/i, /taco|lunch|food/i] as const;
export const stub: VaultEmbedder = {
  model: 'stub:2',
  embed: (texts) =>
    Promise.resolve(
      texts.map((t) => {
        const v = Float32Array.from(AXES, (re) => (re.test(t) ? 1 : 0.05));
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      }),
    ),
};

export interface DocSpec {
  path: string;
  text: string;
  title?: string;
  collection?: string;
  type?: string;
  ageDays?: number;
  pinned?: boolean;
  vault?: string;
}

export interface VaultFixture {
  store: Store;
  deps: RetrieveDeps & { store: Store };
  add(spec: DocSpec): Promise<number>;
  filter(over?: Partial<VaultFilter>): VaultFilter;
  close(): Promise<void>;
}

export async function vaultFixture(): Promise<VaultFixture> {
  const temp = await tempStore();
  const store = temp.store;
  const deps = { store, index: store.vaultIndex, embedder: stub, now: () => NOW };
  async function add(spec: DocSpec): Promise<number> {
    const vault = spec.vault ?? 'default';
    const id = await store.write(async (tx) => {
      const c = await store.vaultIndex.ensureCollection(tx, {
        vault,
        name: spec.collection ?? 'notes',
        contentRoot: spec.collection === INTERNAL_COLLECTION ? '' : '/tmp/notes',
        pattern: '**/*.md',
        now: NOW,
      });
      const at = NOW - (spec.ageDays ?? 10) * DAY;
      const doc = await store.vaultIndex.upsertDocument(tx, {
        vault,
        collectionId: c.id,
        path: spec.path,
        title: spec.title ?? spec.path,
        contentType: spec.type ?? 'note',
        frontmatter: {},
        content: spec.text,
        contentHash: spec.path,
        size: spec.text.length,
        mtime: at,
        lines: 1,
        words: spec.text.split(/\s+/).length,
        modifiedAt: at,
        authoredAt: null,
        confidence: null,
        quality: null,
        origin: 'fs',
        now: NOW,
      });
      await store.vaultIndex.replaceFragments(tx, doc.id, [
        { ordinal: 0, kind: 'whole', headingPath: '', startLine: 1, endLine: 1, text: spec.text },
      ]);
      if (spec.pinned === true) await store.vaultIndex.setPinned(tx, vault, [doc.id], true);
      return doc.id;
    });
    const frags = await store.vaultIndex.fragmentsOf(id);
    const vectors = await stub.embed(frags.map((f) => f.text));
    await store.write((tx) =>
      store.vaultIndex.putVectors(
        tx,
        stub.model,
        frags.map((f, i) => ({ fragmentId: f.id, vector: vectors[i] ?? new Float32Array(2) })),
      ),
    );
    return id;
  }
  return {
    store,
    deps,
    add,
    filter: (over = {}) => ({ vault: 'default', now: NOW, ...over }),
    close: () => temp.close(),
  };
}
