// beads_sync: indexes a project's Beads backlog into the vault's `beads` collection, one
// document per issue at `<id>.md` (origin api). Incremental by the rendered text's hash; an issue
// gone from the list is deactivated ('deleted-in-beads') and reactivated if it comes back.
// Forgotten documents stay forgotten. The project must pass the vault's restricted-path rule.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';

import type { Scrubber } from '../memory/index.js';
import type { Store, VaultSyncState } from '../store/index.js';
import { type BdRun, type BeadsIssue, parseIssues, renderIssue, runBd } from './beads.js';
import { reconcileDeclaredEdges } from './declared.js';
import { VaultInputError } from './errors.js';
import { noteSourceOf, refreshNotes } from './evolution.js';
import { dropDocumentFacts } from './facts.js';
import { prepareDocument, sha256, writeDocument } from './ingest.js';
import { resolveContentRoot } from './sync.js';
import { text } from './tool-schemas.js';

export const BEADS_COLLECTION = 'beads';
const GONE = 'deleted-in-beads';

export const beadsSyncInput = z.object({
  project_path: text('project_path', 4096).optional(),
  vault: text('vault', 100).optional(),
});

export interface BeadsSyncReport {
  vault: string;
  collection: string;
  projectPath: string;
  read: number;
  new: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  /** Issues whose document was forgotten or archived by hand: left as they are. */
  skipped: string[];
}

export interface BeadsSyncDeps {
  store: Store;
  scrubber: Scrubber;
  now: () => number;
  /** The environment bd runs with (PATH decides which bd); BD_DISABLE_METRICS=1 is added. */
  env: NodeJS.ProcessEnv;
  bd?: Pick<BdRun, 'timeoutMs' | 'maxBytes'>;
}

/** The project directory, real and allowed, holding `.beads/`. @throws VaultInputError. */
async function projectOf(path: string): Promise<string> {
  const root = await resolveContentRoot(path, 'project_path');
  const beads = await stat(join(root, '.beads')).catch(() => undefined);
  if (beads?.isDirectory() !== true)
    throw new VaultInputError(`project_path: no .beads/ directory in ${root}`, 'project_path');
  return root;
}

/**
 * Runs bd in the project and indexes its issues.
 * @throws VaultInputError (project_path), VaultRestrictedPathError, BeadsError (bd's failures)
 */
export async function beadsSync(
  deps: BeadsSyncDeps,
  vault: string,
  projectPath: string,
): Promise<BeadsSyncReport> {
  const root = await projectOf(projectPath);
  const issues = parseIssues(await runBd({ cwd: root, env: deps.env, ...deps.bd }));
  const report: BeadsSyncReport = {
    ...{ vault, collection: BEADS_COLLECTION, projectPath: root, read: issues.length },
    ...{ new: 0, updated: 0, unchanged: 0, deactivated: 0, skipped: [] },
  };
  await index(deps, report, issues);
  return report;
}

/** The collection's documents by path, the collection made on first use. */
async function collectionState(store: Store, vault: string, at: number) {
  const ix = store.vaultIndex;
  const c = await store.write((tx) =>
    ix.ensureCollection(tx, {
      vault,
      name: BEADS_COLLECTION,
      contentRoot: '',
      pattern: '',
      now: at,
    }),
  );
  const states = await store.read((tx) => ix.syncState(tx, c.id));
  return { id: c.id, states: new Map(states.map((st) => [st.path, st])) };
}

async function index(
  deps: BeadsSyncDeps,
  report: BeadsSyncReport,
  issues: readonly BeadsIssue[],
): Promise<void> {
  const { store } = deps;
  const at = deps.now();
  const c = await collectionState(store, report.vault, at);
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = `${issue.id.replace(/[^A-Za-z0-9._-]/g, '_')}.md`;
    seen.add(path);
    await indexIssue(deps, report, {
      collectionId: c.id,
      path,
      at,
      issue,
      state: c.states.get(path),
    });
  }
  const gone = [...c.states.values()].filter((st) => st.active && !seen.has(st.path));
  await store.write(async (tx) => {
    const ids = gone.map((st) => st.id);
    await store.vaultIndex.deactivate(tx, report.vault, ids, GONE, at);
    await dropDocumentFacts(store, tx, report.vault, ids, at);
    await reconcileDeclaredEdges(tx, report.vault, at);
    await store.vaultIndex.markSynced(tx, c.id, at);
  });
  report.deactivated = gone.length;
}

/** One issue: skipped (forgotten/archived), unchanged by hash, or scrubbed and written. */
async function indexIssue(
  deps: BeadsSyncDeps,
  report: BeadsSyncReport,
  a: {
    collectionId: number;
    path: string;
    at: number;
    issue: BeadsIssue;
    state?: VaultSyncState | undefined;
  },
): Promise<void> {
  const { store } = deps;
  const { state, issue, at } = a;
  if (state !== undefined && !state.active && state.deactivationReason !== GONE) {
    report.skipped.push(`${issue.id}: ${state.deactivationReason ?? 'inactive'}`);
    return;
  }
  const text = renderIssue(issue);
  const hash = sha256(text);
  if (state?.active === true && state.contentHash === hash) {
    report.unchanged += 1;
    return;
  }
  const doc = await prepareDocument(deps.scrubber, {
    ...{ vault: report.vault, collectionId: a.collectionId, path: a.path, text, contentHash: hash },
    ...{ size: Buffer.byteLength(text), mtime: at, origin: 'api' as const, now: at },
  });
  const row = await store.write(async (tx) => {
    // Reactivated first, so the facts written below link it as an active document.
    if (state !== undefined && !state.active)
      await store.vaultIndex.reactivate(tx, report.vault, [state.id]);
    return writeDocument(store, tx, doc);
  });
  await refreshNotes(store, report.vault, [noteSourceOf(row.id, doc)], at);
  report[state === undefined ? 'new' : 'updated'] += 1;
}
