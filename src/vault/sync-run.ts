// One sync's work after the walk: decide per file (skip a forgotten document, unchanged by size
// and mtime, read and unchanged by hash, or scrub, parse and write), apply the decisions in
// transactions of 100 files, then deactivate what is gone and mark the collection synced.
import { readFile } from 'node:fs/promises';

import type { Scrubber } from '../memory/index.js';
import type { Store, VaultCollectionRow, VaultSyncState } from '../store/index.js';
import { type DeclaredReport, reconcileDeclaredEdges } from './declared.js';
import { noteSourceOf, refreshNotes } from './evolution.js';
import { dropDocumentFacts, restoreDocumentFacts } from './facts.js';
import { type PreparedDocument, prepareDocument, sha256, writeDocument } from './ingest.js';
import type { NoteSource } from './notes.js';
import type { Skipped, WalkedFile, WalkResult } from './walk.js';

/** Deactivation reasons a re-sync reverses when the file is there again. */
export const SYNC_REASONS: ReadonlySet<string> = new Set(['deleted-on-disk', 'skipped-on-sync']);
const BATCH = 100;

export interface SyncReport {
  vault: string;
  collection: string;
  /** The content root after resolving symlinks. */
  contentRoot: string;
  pattern: string;
  added: number;
  updated: number;
  unchanged: number;
  reactivated: number;
  deactivated: number;
  /** Files read from disk (the rest were judged unchanged by size and mtime). */
  read: number;
  /** Fragments written for added and updated documents. */
  fragments: number;
  /** Secrets redacted in what was written. */
  redacted: number;
  skipped: Skipped[];
  /** A walk limit stopped early: nothing was deactivated for missing files. */
  truncated: boolean;
  /** Declared causal edges (frontmatter caused_by / causes), reconciled at the end. */
  declared: DeclaredReport;
  ms: number;
}

type Plan =
  | { kind: 'unchanged'; file: WalkedFile; state: VaultSyncState; touch: boolean }
  | { kind: 'write'; file: WalkedFile; state: VaultSyncState | undefined; doc: PreparedDocument };

export interface SyncContext {
  store: Store;
  scrubber: Scrubber;
  vault: string;
  collection: VaultCollectionRow;
  now: () => number;
  report: SyncReport;
}

export class SyncRun {
  readonly #c: SyncContext;
  readonly #states: readonly VaultSyncState[];
  readonly #byPath: Map<string, VaultSyncState>;
  readonly #seen = new Set<string>();

  constructor(context: SyncContext, states: readonly VaultSyncState[]) {
    this.#c = context;
    this.#states = states;
    this.#byPath = new Map(states.map((s) => [s.path, s]));
  }

  /** Plans and applies every walked file, a batch per write transaction. */
  async files(files: readonly WalkedFile[]): Promise<void> {
    for (let i = 0; i < files.length; i += BATCH) {
      const plans: Plan[] = [];
      for (const file of files.slice(i, i + BATCH)) {
        this.#seen.add(file.path);
        const p = await this.#plan(file);
        if (p !== undefined) plans.push(p);
      }
      if (plans.length > 0) await this.#apply(plans);
    }
  }

  async #plan(file: WalkedFile): Promise<Plan | undefined> {
    const { report } = this.#c;
    const state = this.#byPath.get(file.path);
    if (state !== undefined && !state.active && !SYNC_REASONS.has(state.deactivationReason ?? '')) {
      const why = state.deactivationReason ?? 'deactivated';
      report.skipped.push({ path: file.path, reason: `inactive (${why}); not re-indexed` });
      return undefined;
    }
    if (state?.origin === 'fs' && state.size === file.size && state.mtime === file.mtime)
      return { kind: 'unchanged', file, state, touch: false };
    const text = await readFile(file.real, 'utf8').catch(() => undefined);
    if (text === undefined) {
      report.skipped.push({ path: file.path, reason: 'unreadable file' });
      return undefined;
    }
    report.read += 1;
    const hash = sha256(text);
    if (state !== undefined && state.contentHash === hash)
      return { kind: 'unchanged', file, state, touch: true };
    const doc = await prepareDocument(this.#c.scrubber, {
      ...{ vault: this.#c.vault, collectionId: this.#c.collection.id, path: file.path, text },
      ...{
        contentHash: hash,
        size: file.size,
        mtime: file.mtime,
        origin: 'fs',
        now: this.#c.now(),
      },
    });
    return { kind: 'write', file, state, doc };
  }

  async #apply(plans: readonly Plan[]): Promise<void> {
    const { store, vault, report } = this.#c;
    const ix = store.vaultIndex;
    const written: NoteSource[] = [];
    await store.write(async (tx) => {
      written.length = 0;
      for (const p of plans) {
        // Reactivated first, so the facts written below link it as an active document.
        const back = p.state !== undefined && !p.state.active ? p.state.id : undefined;
        if (back !== undefined) await ix.reactivate(tx, vault, [back]);
        if (p.kind === 'write')
          written.push(noteSourceOf((await writeDocument(store, tx, p.doc)).id, p.doc));
        else {
          if (p.touch) await ix.touchDocument(tx, p.state.id, p.file.size, p.file.mtime);
          if (back !== undefined)
            await restoreDocumentFacts(store, tx, vault, [back], this.#c.now());
        }
      }
    });
    await refreshNotes(store, vault, written, this.#c.now());
    for (const p of plans) {
      if (p.state !== undefined && !p.state.active) report.reactivated += 1;
      if (p.kind === 'unchanged') report.unchanged += 1;
      else {
        report[p.state === undefined ? 'added' : 'updated'] += 1;
        report.fragments += p.doc.fragments.length;
        report.redacted += p.doc.redacted;
      }
    }
  }

  /**
   * Deactivates active documents whose file was not seen ('deleted-on-disk'; none when the walk
   * was truncated) or was skipped ('skipped-on-sync'), reconciles the vault's declared causal
   * edges (pending references resolve once their target exists), and marks the collection synced.
   */
  async finish(walk: WalkResult): Promise<void> {
    const { store, vault, report } = this.#c;
    const skipped = new Set(walk.skipped.map((s) => s.path));
    const gone = this.#states.filter(
      (s) => s.active && s.origin === 'fs' && !this.#seen.has(s.path),
    );
    const deleted = walk.truncated ? [] : gone.filter((s) => !skipped.has(s.path)).map((s) => s.id);
    const hidden = gone.filter((s) => skipped.has(s.path)).map((s) => s.id);
    const at = this.#c.now();
    await store.write(async (tx) => {
      await store.vaultIndex.deactivate(tx, vault, deleted, 'deleted-on-disk', at);
      await store.vaultIndex.deactivate(tx, vault, hidden, 'skipped-on-sync', at);
      await dropDocumentFacts(store, tx, vault, [...deleted, ...hidden], at);
      report.declared = await reconcileDeclaredEdges(tx, vault, at);
      await store.vaultIndex.markSynced(tx, this.#c.collection.id, at);
    });
    report.deactivated = deleted.length + hidden.length;
  }
}
