// The internal collection `_clawmem` of each vault: system documents (observations, deductions,
// handoffs, diary entries) written through the API, never synced from disk. Excluded from the
// retrieval filters by default (see VaultFilter); saved scrubbed like any document.
import type { Scrubber } from '../memory/index.js';
import {
  DECLARED_CAUSAL_KEYS,
  declarationMayName,
  INTERNAL_COLLECTION,
  type Store,
} from '../store/index.js';
import { reconcileDeclaredEdges } from './declared.js';
import { VaultInputError } from './errors.js';
import { noteSourceOf, refreshNotes } from './evolution.js';
import { prepareDocument, writeDocument } from './ingest.js';
import type { ContentType } from './scoring/index.js';

export const INTERNAL_KINDS = ['observation', 'deduction', 'handoff', 'diary'] as const;
export type InternalKind = (typeof INTERNAL_KINDS)[number];

/** The folder and content type of each kind. */
const KIND: Readonly<Record<InternalKind, { dir: string; type: ContentType }>> = {
  observation: { dir: 'observations', type: 'observation' },
  deduction: { dir: 'deductions', type: 'deduction' },
  handoff: { dir: 'handoffs', type: 'handoff' },
  diary: { dir: 'diary', type: 'session' },
};

export interface InternalDocument {
  kind: InternalKind;
  title: string;
  content: string;
  /** Extra frontmatter (tags, topic, agent …); `type` and `title` are set from kind and title. */
  frontmatter?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  /** The path without `.md`, replacing `<kind dir>/<stamp>-<slug>` (diary entries name theirs). */
  base?: string;
}

export interface SavedInternal {
  id: number;
  docid: string;
  path: string;
  collection: typeof INTERNAL_COLLECTION;
}

export const slug = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48) || 'untitled';

function render(doc: InternalDocument): string {
  const fm: Record<string, unknown> = {
    ...doc.frontmatter,
    type: KIND[doc.kind].type,
    title: doc.title,
  };
  const lines = Object.entries(fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `---\n${lines.join('\n')}\n---\n# ${doc.title.replace(/\n/g, ' ')}\n\n${doc.content.trim()}\n`;
}

/**
 * Saves a system document into the vault's `_clawmem` collection (origin 'api') at
 * `<kind dir>/<ISO time with ms>-<slug>.md` or `<base>.md` (a numeric suffix if that path exists).
 * @throws VaultInputError on an unknown kind or empty content; the scrubber's error.
 */
export async function saveInternal(
  store: Store,
  scrubber: Scrubber,
  vault: string,
  doc: InternalDocument,
  now: () => number = Date.now,
): Promise<SavedInternal> {
  if (!INTERNAL_KINDS.includes(doc.kind))
    throw new VaultInputError(`kind: one of ${INTERNAL_KINDS.join(', ')}`, 'kind');
  if (doc.content.trim() === '') throw new VaultInputError('content: must not be empty', 'content');
  const at = now();
  const stamp = new Date(at).toISOString().replace(/[:]/g, '-');
  const base = doc.base ?? `${KIND[doc.kind].dir}/${stamp}-${slug(doc.title)}`;
  const text = render({ ...doc, title: doc.title.trim() || 'untitled' });
  // Scrubbed and parsed before the write transaction (which may run more than once).
  const prepared = await prepareDocument(scrubber, {
    ...{ vault, collectionId: 0, path: `${base}.md`, text, size: Buffer.byteLength(text) },
    ...{ mtime: at, origin: 'api' as const, now: at },
  });
  const saved = await store.write(async (tx): Promise<SavedInternal> => {
    const c = await store.vaultIndex.ensureCollection(tx, {
      ...{ vault, name: INTERNAL_COLLECTION, contentRoot: '', pattern: '' },
      now: at,
    });
    let path = `${base}.md`;
    for (let n = 2; await store.vaultIndex.pathTaken(tx, c.id, path); n++) path = `${base}-${n}.md`;
    const input = { ...prepared.input, collectionId: c.id, path };
    const row = await writeDocument(store, tx, { ...prepared, input });
    // A new system document changes the declared edges only when it declares some itself or a
    // pending declaration may name it: the whole-vault reconciliation runs only then.
    const declares = DECLARED_CAUSAL_KEYS.some((k) => doc.frontmatter?.[k] !== undefined);
    if (declares || (await declarationMayName(tx, vault, [row.docid, path])))
      await reconcileDeclaredEdges(tx, vault, at);
    return { id: row.id, docid: row.docid, path, collection: INTERNAL_COLLECTION };
  });
  await refreshNotes(store, vault, [noteSourceOf(saved.id, prepared)], at);
  return saved;
}
