// `cairn index <path>`: indexes a directory (or, with --git, what git tracks at refs) into the
// database a running server uses, in a worker thread, showing progress on stderr and the outcome
// on stdout. Calls the code domain directly; exits 1 when the job fails or matches nothing.
import { hostname } from 'node:os';

import { discoverProvenance } from '../activity/index.js';
import { createCodeIndex, type IndexParams, type JobStatus } from '../code/index.js';
import { isoTimes } from '../shared/index.js';
import { cairnHome, openStore } from '../store/index.js';
import { intFlag } from './args.js';
import { configDb } from './database.js';
import { progressReporter, summary } from './index-progress.js';
import { findServer } from './serve-record.js';

export interface IndexFlags {
  collection?: string | undefined;
  extensions?: string | undefined;
  'exclude-dirs'?: string | undefined;
  'ignore-patterns'?: string | undefined;
  'max-file-size'?: string | undefined;
  'follow-symlinks'?: boolean | undefined;
  git?: boolean | undefined;
  branches?: string | undefined;
  'include-commits'?: boolean | undefined;
  depth?: string | undefined;
  'dry-run'?: boolean | undefined;
  json?: boolean | undefined;
  db?: string | undefined;
}

const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');

/** The index family's parameters from the flags (lists are comma-separated). */
export function indexParams(path: string, f: IndexFlags): IndexParams {
  const params: IndexParams = { path, action: f.git === true ? 'git_index' : 'start' };
  const put = <K extends keyof IndexParams>(key: K, value: IndexParams[K] | undefined): void => {
    if (value !== undefined) params[key] = value;
  };
  put('collection', f.collection);
  put('extensions', list(f.extensions));
  put('excludeDirs', list(f['exclude-dirs']));
  put('ignorePatterns', list(f['ignore-patterns']));
  put('maxFileSize', intFlag(f['max-file-size'], '--max-file-size', 1, Number.MAX_SAFE_INTEGER));
  put('followSymlinks', f['follow-symlinks']);
  put('branches', list(f.branches));
  put('includeCommits', f['include-commits']);
  put('depth', intFlag(f.depth, '--depth', 1, 1000));
  put('dryRun', f['dry-run']);
  return params;
}

const out = (text: string): void => void process.stdout.write(text);

/** `cairn index <path>`. */
export async function indexCommand(path: string, flags: IndexFlags): Promise<void> {
  const params = indexParams(path, flags);
  const lookup = findServer(cairnHome());
  const db = configDb(flags.db, lookup.state === 'running' ? lookup.record : undefined);
  const store = await openStore({ url: db.url, path: db.dbPath });
  const index = createCodeIndex(store);
  const interrupt = (): void => void index.stop();
  process.once('SIGINT', interrupt);
  try {
    const { provenance } = await discoverProvenance({
      env: process.env,
      cwd: process.cwd(),
      hostname: hostname(),
      clientName: 'cairn-cli',
    });
    const started = await index.start(params, provenance);
    if (started.kind === 'plan') return out(`${JSON.stringify(started.plan, null, 2)}\n`);
    if (started.alreadyRunning) process.stderr.write(`cairn: ${started.message}\n`);
    const reporter = progressReporter(process.stderr);
    let final: JobStatus;
    try {
      final = await index.wait(started.job.id, { onProgress: (s) => reporter.update(s) });
    } finally {
      reporter.end();
    }
    out(flags.json === true ? `${JSON.stringify(isoTimes(final), null, 2)}\n` : summary(final));
    if (final.state !== 'done') process.exitCode = 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    await index.stop();
    await store.close();
  }
}
