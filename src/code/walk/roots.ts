// Resolves the `path` to walk and checks it against the allowed roots. Refusals are typed and
// name the field; nothing outside an allowed root is stat'ed, so existence never leaks.
import { realpathSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';

import { InvalidInputError } from '../../shared/index.js';

/** Why a `path` was refused. */
export type PathRefusal = 'outside_allowed_roots' | 'missing' | 'not_directory' | 'invalid';

/** The `path` argument cannot be walked; `field` is the argument's name. */
export class PathRefusedError extends InvalidInputError {
  readonly refusal: PathRefusal;
  constructor(refusal: PathRefusal, message: string, field = 'path') {
    super(message, field);
    this.refusal = refusal;
  }
}

/** The default allowed roots: the user's home and the OS temp folder, canonicalised. */
export function defaultAllowedRoots(): string[] {
  return [homedir(), tmpdir()].map(canonical);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** True when `path` is `root` or lies under it (both absolute, canonical). */
export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** Allowed roots as given (or the defaults), canonicalised once. */
export function allowedRootsOf(given: readonly string[] | undefined): string[] {
  return given === undefined ? defaultAllowedRoots() : given.map((r) => canonical(resolve(r)));
}

function refuseOutside(path: string, roots: readonly string[], shown: string, field: string) {
  if (roots.some((r) => isWithin(path, r))) return;
  throw new PathRefusedError(
    'outside_allowed_roots',
    `${field} ${shown} is outside the allowed roots (${roots.join(', ')})`,
    field,
  );
}

/** A path that passed the allowed-roots checks: where it really is, and what it is. */
export interface AllowedPath {
  /** Canonical (realpath) absolute path. */
  real: string;
  isDirectory: boolean;
}

/**
 * Resolves `path` (relative to `cwd`) to a canonical file or directory inside the allowed
 * roots. Throws PathRefusedError (field `path`, or `field`) when it is empty, outside the roots
 * (checked before anything is stat'ed, and again after resolving links), missing or a broken
 * link.
 */
export async function resolveAllowedPath(
  path: string,
  roots: readonly string[],
  cwd: string = process.cwd(),
  field = 'path',
): Promise<AllowedPath> {
  const refuse = (refusal: PathRefusal, message: string) =>
    new PathRefusedError(refusal, `${field} ${message}`, field);
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
    throw refuse('invalid', 'must be a non-empty file or directory path');
  }
  const shown = JSON.stringify(path);
  const lexical = resolve(cwd, path);
  refuseOutside(lexical, roots, shown, field);
  try {
    await lstat(lexical);
  } catch {
    throw refuse('missing', `${shown} does not exist`);
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw refuse('missing', `${shown} is a broken link`);
  }
  refuseOutside(real, roots, `${shown} (resolves to ${real})`, field);
  return { real, isDirectory: (await stat(real)).isDirectory() };
}

/**
 * The canonical directory to walk. Throws PathRefusedError (field `path`, or `field`) when the
 * path is empty, outside the allowed roots (checked before and after resolving links), missing,
 * or not a directory.
 */
export async function resolveWalkRoot(
  path: string,
  roots: readonly string[],
  cwd: string = process.cwd(),
  field = 'path',
): Promise<string> {
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
    throw new PathRefusedError('invalid', `${field} must be a non-empty directory path`, field);
  }
  const { real, isDirectory } = await resolveAllowedPath(path, roots, cwd, field);
  if (!isDirectory) {
    throw new PathRefusedError(
      'not_directory',
      `${field} ${JSON.stringify(path)} is a file, not a directory`,
      field,
    );
  }
  return real;
}
