// Commit metadata for git_index: the last `depth` commits of a ref (`git log`, bounded output,
// never a shell; the commit is a resolved object id) and their rows in `code_commits`, replaced
// per branch in one transaction.
import type { Queryable } from '../../store/index.js';
import { runGit } from '../walk/index.js';

export interface CommitRow {
  sha: string;
  parents: string[];
  author: string;
  authoredAt: number;
  subject: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';
/** Output allowed per commit (subject and author are cut well below this). */
const BYTES_PER_COMMIT = 4096;
const MAX_SUBJECT = 500;
const MAX_AUTHOR = 200;
const ROWS_PER_STATEMENT = 100;

/** The commit time of `commit`, epoch ms. */
export async function commitTimeMs(root: string, commit: string): Promise<number> {
  const out = await runGit(root, ['log', '-1', '--format=%ct', commit, '--'], 4096);
  const seconds = Number(out.toString('utf8').trim());
  return Number.isFinite(seconds) ? seconds * 1000 : 0;
}

/** The newest `depth` commits reachable from `commit`, newest first. */
export async function readCommits(
  root: string,
  commit: string,
  depth: number,
): Promise<CommitRow[]> {
  const out = await runGit(
    root,
    [
      'log',
      '--no-color',
      `--max-count=${depth}`,
      '--format=%H%x1f%P%x1f%an%x1f%at%x1f%s%x1e',
      commit,
      '--',
    ],
    depth * BYTES_PER_COMMIT + 4096,
  );
  const rows: CommitRow[] = [];
  for (const record of out.toString('utf8').split(RECORD)) {
    const [sha = '', parents = '', author = '', at = '', subject = ''] = record.trim().split(FIELD);
    if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha)) continue;
    rows.push({
      sha,
      parents: parents === '' ? [] : parents.split(' '),
      author: author.slice(0, MAX_AUTHOR),
      authoredAt: Number(at) * 1000,
      subject: subject.slice(0, MAX_SUBJECT),
    });
  }
  return rows;
}

/** Replaces the branch's commit rows with `commits` (inside the caller's transaction). */
export async function writeCommits(
  tx: Queryable,
  collectionId: number,
  branch: string,
  commits: readonly CommitRow[],
): Promise<void> {
  await tx.run('DELETE FROM code_commits WHERE collection_id = ? AND branch = ?', [
    collectionId,
    branch,
  ]);
  for (let i = 0; i < commits.length; i += ROWS_PER_STATEMENT) {
    const part = commits.slice(i, i + ROWS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO code_commits (collection_id, branch, sha, parents, author, authored_at, subject,
         ordinal) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
       ON CONFLICT DO NOTHING`,
      part.flatMap((c, j) => [
        collectionId,
        branch,
        c.sha,
        JSON.stringify(c.parents),
        c.author,
        c.authoredAt,
        c.subject,
        i + j,
      ]),
    );
  }
}
