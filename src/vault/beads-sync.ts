// beads_sync: indexes a project's Beads backlog into the vault's `beads` collection, one
// document per issue at `<id>.md` (origin api). Incremental by the rendered text's hash; an issue
// gone from the list is deactivated ('deleted-in-beads') and reactivated if it comes back.
// Forgotten documents stay forgotten. The project must pass the vault's restricted-path rule.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';

import type { Scrubber } from '../memory/index.js';
import type { Store } from '../store/index.js';
import { type BdRun, type BeadsIssue, parseIssues, renderIssue, runBd } from './beads.js';
import { VaultInputError } from './errors.js';
import { prepareDocument, sha256, writeDocument } from './ingest.js';
import { resolveContentRoot } from './sync.js';

export const BEADS_COLLECTION = 'beads';
const GONE = 'deleted-in-beads';

export const beadsSyncInput = z.object({
  project_path: z
    .string({ error: () => 'project_path must be a string' })
    .max(4096, 'project_path is longer than 4096 characters')
    .refine((v) => v.trim() !== '', 'project_path must not be blank')
    .optional(),
  vault: z
    .string({ error: () => 'vault must be a string' })
    .max(100, 'vault is longer than 100 characters')
    .refine((v) => v.trim() !== '', 'vault must not be blank')
    .optional(),
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

async function index(
  deps: BeadsSyncDeps,
  report: BeadsSyncReport,
  issues: readonly BeadsIssue[],
): Promise<void> {
  const { store, vault } = { ...deps, vault: report.vault };
  const at = deps.now();
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
  const states = new Map(
    (await store.read((tx) => ix.syncState(tx, c.id))).map((s) => [s.path, s]),
  );
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = `${issue.id.replace(/[^A-Za-z0-9._-]/g, '_')}.md`;
    seen.add(path);
    const text = renderIssue(issue);
    const hash = sha256(text);
    const state = states.get(path);
    if (state !== undefined && !state.active && state.deactivationReason !== GONE) {
      report.skipped.push(`${issue.id}: ${state.deactivationReason ?? 'inactive'}`);
      continue;
    }
    if (state?.active === true && state.contentHash === hash) {
      report.unchanged += 1;
      continue;
    }
    const doc = await prepareDocument(deps.scrubber, {
      ...{ vault, collectionId: c.id, path, text, contentHash: hash },
      ...{ size: Buffer.byteLength(text), mtime: at, origin: 'api' as const, now: at },
    });
    await store.write(async (tx) => {
      await writeDocument(store, tx, doc);
      if (state !== undefined && !state.active) await ix.reactivate(tx, vault, [state.id]);
    });
    report[state === undefined ? 'new' : 'updated'] += 1;
  }
  const gone = [...states.values()].filter((s) => s.active && !seen.has(s.path)).map((s) => s.id);
  await store.write(async (tx) => {
    await ix.deactivate(tx, vault, gone, GONE, at);
    await ix.markSynced(tx, c.id, at);
  });
  report.deactivated = gone.length;
}
