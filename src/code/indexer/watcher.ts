// Watches one work tree for changes (fs.watch, recursive: inotify on Linux since Node 20, FSEvents
// on macOS, ReadDirectoryChangesW on Windows) and calls back once the tree has been quiet for
// `debounceMs`, with the paths that changed. It never keeps the process alive on its own.
import { type FSWatcher, watch } from 'node:fs';
import { relative, sep } from 'node:path';

import { DEFAULT_EXCLUDED_DIRS } from '../walk/index.js';

export interface TreeWatcherOptions {
  debounceMs: number;
  /** Absolute paths whose changes never count (the database and its journal files). */
  ignoreFiles: readonly string[];
  onChange: (paths: string[]) => void;
  onError: (err: unknown) => void;
}

export interface TreeWatcher {
  close(): void;
}

const EXCLUDED = new Set([...DEFAULT_EXCLUDED_DIRS, '.git']);

/** True for events no index would act on: inside `.git` or a default-excluded folder. */
function ignoredPath(rel: string): boolean {
  return rel.split('/').some((part) => EXCLUDED.has(part));
}

/** Starts watching `root`; throws the fs.watch error when the platform cannot watch it. */
export function watchTree(root: string, options: TreeWatcherOptions): TreeWatcher {
  const ignoreRel = new Set(
    options.ignoreFiles
      .map((f) => relative(root, f).split(sep).join('/'))
      .filter((r) => !r.startsWith('..')),
  );
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    if (paths.length > 0) options.onChange(paths);
  };
  const watcher: FSWatcher = watch(root, { recursive: true, persistent: false }, (_event, name) => {
    const rel = name === null ? '' : String(name).split(sep).join('/');
    if (rel !== '' && (ignoredPath(rel) || ignoreRel.has(rel))) return;
    pending.add(rel);
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, options.debounceMs);
    timer.unref();
  });
  watcher.on('error', options.onError);
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer);
      pending.clear();
      watcher.close();
    },
  };
}
