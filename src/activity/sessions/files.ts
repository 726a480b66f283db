// The files a logged tool call touched: `data.files`, and string values under path-like keys of
// its arguments (path, file, file_path, paths, files, …) at any depth. Bounded in depth and
// count; a directory key such as repo_path or cwd is not a file. Pure.

const FILE_KEY = /^(?:.*_)?(?:path|paths|file|files|filename|filepath|filenames)$/i;
const NOT_FILE = /^(?:repo_path|cwd|dir|directory|root|base_path)$/i;
const MAX_DEPTH = 6;
export const MAX_FILES = 200;
const MAX_PATH = 4096;

function collect(value: unknown, key: string | null, depth: number, out: Set<string>): void {
  if (out.size >= MAX_FILES || depth > MAX_DEPTH) return;
  const fileKey = key !== null && FILE_KEY.test(key) && !NOT_FILE.test(key);
  if (typeof value === 'string') {
    const path = value.trim();
    if (fileKey && path !== '' && path.length <= MAX_PATH && !path.includes('\n')) out.add(path);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, fileKey ? key : null, depth + 1, out);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) collect(v, k, depth + 1, out);
  }
}

/** The files of one call: the explicit list first, then those its arguments name; no repeats. */
export function filesTouched(
  explicit: readonly string[] | undefined,
  args: Readonly<Record<string, unknown>> | undefined,
): string[] {
  const out = new Set<string>();
  for (const f of explicit ?? []) if (out.size < MAX_FILES) out.add(f.trim());
  if (args !== undefined) collect(args, null, 0, out);
  return [...out].filter((f) => f !== '');
}
