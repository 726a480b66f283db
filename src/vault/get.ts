// Document access: getDocument (one document by path or '#docid', a line window, optional line
// numbers) and multiGet (a glob or a comma list under a total byte budget, truncation reported
// per document and overall). Only live (active) documents are served; an inactive one is
// refused with its deactivation reason. Reads only: access counters are the tools' to bump.
import type { Store, VaultDocumentMeta, VaultDocumentRow } from '../store/index.js';
import { VaultDocumentNotFoundError, VaultInputError } from './errors.js';
import { compileGlob, isGlob } from './glob.js';

export interface LineWindow {
  /** First line, 1-based (default 1). */
  fromLine?: number | undefined;
  maxLines?: number | undefined;
  lineNumbers?: boolean | undefined;
}

export interface DocumentText {
  document: VaultDocumentMeta;
  text: string;
  fromLine: number;
  /** Last line shown (fromLine - 1 when none). */
  toLine: number;
  totalLines: number;
  /** Lines after toLine were left out. */
  truncated: boolean;
}

const normalise = (p: string): string => p.trim().replace(/^\.\//, '').replace(/^\/+/, '');

function meta(doc: VaultDocumentRow): VaultDocumentMeta {
  const { content: _c, frontmatter: _f, ...rest } = doc;
  return rest;
}

/** The vault's documents a reference names: '#docid', a path, or 'collection/path'. */
async function lookup(store: Store, vault: string, ref: string): Promise<VaultDocumentRow[]> {
  const ix = store.vaultIndex;
  if (ref.startsWith('#')) {
    const d = await ix.documentByDocid(vault, ref);
    return d === undefined ? [] : [d];
  }
  const path = normalise(ref);
  const found = await ix.documentsAtPath(vault, path);
  const slash = path.indexOf('/');
  if (found.length > 0 || slash < 0) return found;
  return ix.documentsAtPath(vault, path.slice(slash + 1), path.slice(0, slash));
}

/**
 * The live document `ref` names in `vault` (active first when several collections hold it).
 * @throws VaultDocumentNotFoundError when none, or only inactive ones (naming the reason).
 */
export async function findDocument(
  store: Store,
  vault: string,
  ref: string,
): Promise<VaultDocumentRow> {
  const docs = await lookup(store, vault, ref);
  const live = docs.find((d) => d.active);
  if (live !== undefined) return live;
  const dead = docs[0];
  if (dead !== undefined)
    throw new VaultDocumentNotFoundError(
      `${ref} is not live in vault "${vault}" (inactive: ${dead.deactivationReason ?? 'deactivated'})`,
    );
  throw new VaultDocumentNotFoundError(`no document ${ref} in vault "${vault}"`);
}

function positive(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1)
    throw new VaultInputError(`${field}: must be a positive integer`, field);
  return value;
}

/** The line window of a document's content. */
export function windowOf(doc: VaultDocumentRow, w: LineWindow): DocumentText {
  const from = positive(w.fromLine, 'fromLine') ?? 1;
  const max = positive(w.maxLines, 'maxLines');
  const lines = doc.content === '' ? [] : doc.content.split('\n');
  const end = max === undefined ? lines.length : Math.min(lines.length, from - 1 + max);
  const shown = lines.slice(from - 1, end);
  const text = (w.lineNumbers === true ? shown.map((l, i) => `${from + i}: ${l}`) : shown).join(
    '\n',
  );
  return {
    document: meta(doc),
    text,
    fromLine: from,
    toLine: from - 1 + shown.length,
    totalLines: lines.length,
    truncated: end < lines.length,
  };
}

/** One document by path or '#docid'. @throws VaultDocumentNotFoundError, VaultInputError. */
export async function getDocument(
  store: Store,
  vault: string,
  ref: string,
  window: LineWindow = {},
): Promise<DocumentText> {
  return windowOf(await findDocument(store, vault, ref), window);
}

export interface MultiGetOptions {
  maxLines?: number | undefined;
  /** Total bytes of text returned (UTF-8), default 10,240. */
  maxBytes?: number | undefined;
  lineNumbers?: boolean | undefined;
}

export interface MultiGetItem extends DocumentText {
  /** Why this document's text is cut: its line limit, or the total byte budget. */
  cut: 'maxLines' | 'maxBytes' | null;
}

export interface MultiGetResult {
  documents: MultiGetItem[];
  /** Documents that matched but did not fit the byte budget at all. */
  omitted: { path: string; docid: string; reason: 'maxBytes' }[];
  /** Listed references that name no live document. */
  missing: string[];
  bytes: number;
  maxBytes: number;
  /** Some text was left out (a document cut or omitted). */
  truncated: boolean;
}

export const MULTI_GET_MAX_BYTES = 10_240;

async function matches(store: Store, vault: string, pattern: string) {
  if (isGlob(pattern)) {
    const match = compileGlob(normalise(pattern));
    const all = await store.vaultIndex.listDocuments(vault);
    const hit = all.filter((d) => match(d.path) || match(`${d.collection}/${d.path}`));
    return {
      docs: await store.vaultIndex.documentsById(
        vault,
        hit.map((d) => d.id),
      ),
      missing: [],
    };
  }
  const docs: VaultDocumentRow[] = [];
  const missing: string[] = [];
  for (const ref of pattern
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '')) {
    const d = await findDocument(store, vault, ref).catch((err: unknown) => {
      if (err instanceof VaultDocumentNotFoundError) return undefined;
      throw err;
    });
    if (d === undefined) missing.push(ref);
    else if (!docs.some((x) => x.id === d.id)) docs.push(d);
  }
  return { docs, missing };
}

/** The lines of `text` that fit `budget` UTF-8 bytes (whole lines, newlines counted). */
function fitLines(text: string, budget: number): string {
  let used = 0;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const cost = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost > budget) break;
    kept.push(line);
    used += cost;
  }
  return kept.join('\n');
}

/**
 * Documents by glob (matched against path and collection/path) or comma-separated list, in
 * order, until `maxBytes` of text; the document that crosses the budget is cut at a line.
 */
export async function multiGet(
  store: Store,
  vault: string,
  pattern: string,
  options: MultiGetOptions = {},
): Promise<MultiGetResult> {
  const maxBytes = positive(options.maxBytes, 'maxBytes') ?? MULTI_GET_MAX_BYTES;
  const { docs, missing } = await matches(store, vault, pattern);
  const out: MultiGetResult = {
    documents: [],
    omitted: [],
    missing,
    bytes: 0,
    maxBytes,
    truncated: false,
  };
  for (const doc of docs) {
    const w = windowOf(doc, { maxLines: options.maxLines, lineNumbers: options.lineNumbers });
    const left = maxBytes - out.bytes;
    const size = Buffer.byteLength(w.text);
    if (size <= left) {
      out.documents.push({ ...w, cut: w.truncated ? 'maxLines' : null });
      out.bytes += size;
      continue;
    }
    const text = fitLines(w.text, left);
    if (text === '' || out.bytes >= maxBytes) {
      out.omitted.push({ path: doc.path, docid: doc.docid, reason: 'maxBytes' });
    } else {
      const shown = text.split('\n').length;
      out.documents.push({
        ...w,
        text,
        toLine: w.fromLine + shown - 1,
        truncated: true,
        cut: 'maxBytes',
      });
      out.bytes += Buffer.byteLength(text);
    }
    out.truncated = true;
  }
  out.truncated ||= out.documents.some((d) => d.cut !== null);
  return out;
}
