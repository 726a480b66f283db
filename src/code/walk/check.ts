// Checks a walk's options without walking: the filters compile and the path is an allowed
// directory. For callers that must refuse bad input before starting background work (the
// indexer's start); the walk itself checks the same things again.
import { allowedRootsOf, resolveWalkRoot } from './roots.js';
import { compileRules } from './rules.js';
import type { WalkOptions } from './types.js';

/** What a check learned: the canonical root, and whether the filters exclude everything. */
export interface WalkCheck {
  root: string;
  /** Set when the patterns would exclude every file (the walk would report nothing to index). */
  matchesEverything: string | null;
}

/**
 * Validates `options` as walkRepository would. Throws PathRefusedError (field `path`) for a
 * path outside the allowed roots, missing, a broken link or a file, and InvalidInputError naming
 * `extensions`, `exclude_dirs`, `ignore_patterns` or `max_file_size` for malformed filters.
 */
export async function checkWalkOptions(options: WalkOptions): Promise<WalkCheck> {
  const rules = compileRules(options);
  const root = await resolveWalkRoot(
    options.path,
    allowedRootsOf(options.allowedRoots),
    options.cwd,
  );
  return { root, matchesEverything: rules.matchesEverything };
}
