// Reading a Beads backlog: finds `bd` on PATH, runs `bd list --json --limit 0` (execFile, no
// shell; BD_DISABLE_METRICS=1; bounded in time and output), validates the JSON with zod and
// renders each issue as a markdown document (claim-lease fields as a **Claim Lease** line).
// Absent fields are tolerated; unknown ones ignored. No store access here.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

import { z } from 'zod';

import { DomainError } from '../shared/errors.js';

export const BD_ARGS = ['list', '--json', '--limit', '0'] as const;
export const BD_TIMEOUT_MS = 30_000;
export const BD_MAX_BYTES = 16 * 1024 * 1024;

/** bd is missing, failed, timed out, printed too much or printed something that is not a list. */
export class BeadsError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('beads_failed', message, options);
  }
}

const opt = z.string().nullish();
const dependency = z.union([
  z.string(),
  z
    .object({ depends_on_id: opt, id: opt, issue_id: opt, type: opt, dependency_type: opt })
    .passthrough(),
]);
const issueSchema = z
  .object({
    id: z.string().min(1),
    title: z.string(),
    description: opt,
    status: opt,
    priority: z.union([z.number(), z.string()]).nullish(),
    issue_type: opt,
    assignee: opt,
    labels: z.array(z.string()).nullish(),
    dependencies: z.array(dependency).nullish(),
    claimed_by: opt,
    claimed_at: opt,
    lease_expires_at: opt,
  })
  .passthrough();
export type BeadsIssue = z.infer<typeof issueSchema>;

/** The absolute path of `bd` on `path` (a PATH value), or undefined. */
export async function findBd(path: string | undefined): Promise<string | undefined> {
  for (const dir of (path ?? '').split(delimiter).filter((d) => d !== '')) {
    const candidate = join(dir, 'bd');
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

export interface BdRun {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Runs `bd list --json --limit 0` in `cwd`. @throws BeadsError saying what went wrong. */
export async function runBd(run: BdRun): Promise<string> {
  const bd = await findBd(run.env.PATH);
  if (bd === undefined) throw new BeadsError('bd not found on PATH: install Beads to sync issues');
  const timeout = run.timeoutMs ?? BD_TIMEOUT_MS;
  const maxBuffer = run.maxBytes ?? BD_MAX_BYTES;
  return new Promise((done, fail) => {
    execFile(
      bd,
      [...BD_ARGS],
      {
        ...{ cwd: run.cwd, env: { ...run.env, BD_DISABLE_METRICS: '1' } },
        ...{ timeout, maxBuffer, windowsHide: true, encoding: 'utf8' },
      },
      (err, stdout, stderr) => {
        if (err === null) return done(stdout);
        fail(new BeadsError(failure(err, stderr, timeout, maxBuffer), { cause: err }));
      },
    );
  });
}

function failure(
  err: Error & { code?: unknown; killed?: boolean; signal?: unknown },
  stderr: string,
  timeout: number,
  maxBuffer: number,
): string {
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
    return `bd printed more than ${maxBuffer} bytes; output refused`;
  if (err.killed === true) return `bd timed out after ${timeout} ms`;
  const tail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500);
  return `bd list failed (exit ${String(err.code ?? err.signal)})${tail === '' ? '' : `: ${tail}`}`;
}

/** Parses bd's JSON (a list of issues). @throws BeadsError naming the first problem. */
export function parseIssues(stdout: string): BeadsIssue[] {
  let json: unknown;
  try {
    json = JSON.parse(stdout.trim() === '' ? '[]' : stdout);
  } catch (cause) {
    throw new BeadsError(`bd printed invalid JSON: ${stdout.slice(0, 80)}`, { cause });
  }
  const parsed = z.array(issueSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    throw new BeadsError(`bd printed an unexpected payload at [${where}]: ${issue?.message ?? ''}`);
  }
  return parsed.data;
}

const depText = (d: z.infer<typeof dependency>): string => {
  if (typeof d === 'string') return d;
  const id = d.depends_on_id ?? d.id ?? d.issue_id ?? '?';
  const type = d.type ?? d.dependency_type;
  return type == null ? id : `${id} (${type})`;
};

/** The issue as a markdown document (frontmatter, the fields, the description). */
export function renderIssue(i: BeadsIssue): string {
  const fm = { type: 'progress', title: i.title, beads_id: i.id, status: i.status ?? 'unknown' };
  const field = (name: string, v: unknown): string[] =>
    v == null || v === '' ? [] : [`**${name}**: ${String(v)}`];
  const lease =
    i.claimed_by == null && i.claimed_at == null && i.lease_expires_at == null
      ? []
      : [
          `**Claim Lease**: ${i.claimed_by ?? 'unknown'}` +
            (i.claimed_at == null ? '' : `, claimed ${i.claimed_at}`) +
            (i.lease_expires_at == null ? '' : `, expires ${i.lease_expires_at}`),
        ];
  const lines = [
    ...field('ID', i.id),
    ...field('Status', i.status),
    ...field('Priority', i.priority),
    ...field('Type', i.issue_type),
    ...field('Assignee', i.assignee),
    ...field('Labels', i.labels?.join(', ')),
    ...field('Dependencies', i.dependencies?.map(depText).join(', ')),
    ...lease,
  ];
  const head = Object.entries(fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const body = i.description?.trim() ?? '';
  return `---\n${head.join('\n')}\n---\n# ${i.title.replace(/\n/g, ' ')}\n\n${lines.join('\n')}\n${body === '' ? '' : `\n${body}\n`}`;
}
