// Which reference graph answers analyze_impact: a ready index of the repository when one
// exists (the branch named like the target, else its work tree), else the tree at the target.
import { InvalidInputError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import { indexReferenceGraph } from './graph-index.js';
import { treeReferenceGraph } from './graph-tree.js';
import { type RepoOptions, resolveRepo } from './repo.js';
import type { ReferenceGraph } from './types.js';

export interface GraphChoice extends RepoOptions {
  repoPath: string;
  /** The target ref as the caller named it (default HEAD). */
  targetBranch?: string;
  /** Use this collection (by name) instead of looking one up by root. */
  collection?: string;
}

interface Candidate {
  id: number;
  branch: string;
}

/**
 * An index graph over the newest ready collection whose root is the repository (or lies in
 * it) and that holds the target branch or a work tree; otherwise a tree graph at the target.
 * @throws InvalidInputError (`collection`) for a named collection that does not exist or is
 * not ready; what resolveRepo and treeReferenceGraph throw.
 */
export async function referenceGraphFor(
  store: Store,
  choice: GraphChoice,
): Promise<ReferenceGraph> {
  const repo = await resolveRepo(choice.repoPath, choice);
  const target = choice.targetBranch ?? 'HEAD';
  const named = choice.collection !== undefined;
  const rows = await store.all<Candidate & { root: string; name: string }>(
    `SELECT c.id AS id, c.root AS root, c.name AS name, f.branch AS branch
     FROM code_collections c JOIN code_files f ON f.collection_id = c.id
     WHERE c.state = 'ready' AND (CAST(? AS TEXT) IS NULL OR c.name = ?) AND f.branch IN (?, '')
     GROUP BY c.id, c.root, c.name, c.indexed_at, f.branch ORDER BY c.indexed_at DESC LIMIT 200`,
    [choice.collection ?? null, choice.collection ?? null, target],
  );
  const mine = rows.filter((r) => named || r.root === repo || r.root.startsWith(`${repo}/`));
  const pick =
    mine.find((r) => r.branch === target && target !== '') ?? mine.find((r) => r.branch === '');
  if (pick !== undefined) return indexReferenceGraph(store, pick.id, { branch: pick.branch });
  if (named) {
    throw new InvalidInputError(
      `collection ${JSON.stringify(choice.collection)} is not a ready index of this repository's ${target} or work tree`,
      'collection',
    );
  }
  return treeReferenceGraph(repo, target, choice);
}
