// Turns one markdown text into what the store writes: scrubbed first (before hashing of the
// stored content, parsing, indexing or embedding, so a secret never reaches the database), then
// parsed into title, type, frontmatter, counts and fragments. Shared by sync and saveInternal.
import { createHash } from 'node:crypto';

import type { Scrubber } from '../memory/index.js';
import type {
  Queryable,
  Store,
  VaultDocumentInput,
  VaultFragmentInput,
  VaultOrigin,
} from '../store/index.js';
import { recordDocumentFacts } from './facts.js';
import { parseMarkdown } from './markdown.js';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface PreparedDocument {
  input: VaultDocumentInput;
  fragments: VaultFragmentInput[];
  /** How many secrets the scrubber redacted. */
  redacted: number;
}

export interface RawDocument {
  vault: string;
  collectionId: number;
  path: string;
  text: string;
  /** Hash of the text as read (what a re-sync compares); defaults to the scrubbed text's. */
  contentHash?: string;
  size: number;
  mtime: number;
  origin: VaultOrigin;
  now: number;
}

/** Scrubs and parses a document. @throws the scrubber's error (the write must be refused). */
export async function prepareDocument(
  scrubber: Scrubber,
  raw: RawDocument,
): Promise<PreparedDocument> {
  const scrubbed = await scrubber.scrub(raw.text);
  const parsed = parseMarkdown(scrubbed.text, raw.path);
  return {
    input: {
      vault: raw.vault,
      collectionId: raw.collectionId,
      path: raw.path,
      title: parsed.title,
      contentType: parsed.contentType,
      frontmatter: parsed.frontmatter,
      content: scrubbed.text,
      contentHash: raw.contentHash ?? sha256(scrubbed.text),
      size: raw.size,
      mtime: raw.mtime,
      lines: parsed.lines,
      words: parsed.words,
      modifiedAt: raw.origin === 'fs' ? raw.mtime : raw.now,
      authoredAt: parsed.authoredAt,
      confidence: parsed.confidence,
      quality: parsed.quality,
      origin: raw.origin,
      now: raw.now,
    },
    fragments: parsed.fragments,
    redacted: scrubbed.findings.length,
  };
}

/** Writes a prepared document and its fragments in the caller's transaction. */
export async function writeDocument(
  store: Store,
  tx: Queryable,
  doc: PreparedDocument,
): Promise<{ id: number; docid: string; created: boolean }> {
  const row = await store.vaultIndex.upsertDocument(tx, doc.input);
  await store.vaultIndex.replaceFragments(tx, row.id, doc.fragments);
  const { vault, content, modifiedAt, now } = doc.input;
  await recordDocumentFacts(store, tx, { vault, id: row.id, content, at: modifiedAt, now });
  return row;
}
