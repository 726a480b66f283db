// A PostgreSQL server for benches: the one CAIRN_BENCH_PG_URL names (its admin URL), or a
// throwaway PostgreSQL 15 cluster (initdb in a temp folder as an unprivileged user, a free
// loopback port) stopped and removed by `stop`, also when the bench failed. Loopback only.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

const PGBIN = '/usr/lib/postgresql/15/bin';
/** The same settings as .ci/postgres.sh: a bench measures Cairn, not the disk's fsync. */
const SERVER_OPTIONS = [
  'listen_addresses=127.0.0.1',
  'max_connections=400',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
];

export interface BenchPostgres {
  /** Where the databases live: 'throwaway PostgreSQL 15 cluster' or 'CAIRN_BENCH_PG_URL'. */
  readonly source: string;
  /** Creates an empty database (or one copied from `template`) and returns its URL. */
  createDatabase(name: string, template?: string): Promise<string>;
  /** Drops the databases this run created, then stops and removes a throwaway cluster. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a PostgreSQL binary as `nobody` when we are root (initdb refuses root). */
function runPg(bin: string, args: readonly string[]): void {
  const root = userInfo().uid === 0;
  const quoted = [join(PGBIN, bin), ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`);
  if (root) execFileSync('su', ['-s', '/bin/sh', 'nobody', '-c', quoted.join(' ')]);
  else execFileSync(join(PGBIN, bin), [...args]);
}

async function startCluster(): Promise<{ adminUrl: string; stop(): void }> {
  if (!existsSync(join(PGBIN, 'initdb'))) {
    throw new Error(`no PostgreSQL 15 at ${PGBIN} (apt-get install postgresql-15)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-pg-'));
  const data = join(dir, 'data');
  let started = false;
  const stop = (): void => {
    if (started) {
      try {
        runPg('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (userInfo().uid === 0) chownSync(dir, 65534, 65534);
    runPg('initdb', ['-D', data, '-A', 'trust', '-U', 'cairn', '-E', 'UTF8', '--locale=C']);
    const port = await freePort();
    const opts = [`-p ${port}`, `-k ${dir}`, ...SERVER_OPTIONS.map((o) => `-c ${o}`)].join(' ');
    runPg('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'server.log'), '-o', opts, 'start']);
    started = true;
    return { adminUrl: `postgres://cairn@127.0.0.1:${port}/postgres`, stop };
  } catch (err) {
    stop();
    throw err;
  }
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Starts (or attaches to) the bench's PostgreSQL server. Database names get a per-run prefix,
 * so a shared server's other databases are never touched; `stop` drops only ours.
 */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const given = process.env['CAIRN_BENCH_PG_URL'];
  const cluster = given === undefined || given === '' ? await startCluster() : undefined;
  const adminUrl = cluster?.adminUrl ?? (given as string);
  const prefix = `cairn_bench_${process.pid}_${Date.now().toString(36)}_`;
  const created: string[] = [];
  return {
    source: cluster === undefined ? 'CAIRN_BENCH_PG_URL' : 'throwaway PostgreSQL 15 cluster',
    async createDatabase(name, template) {
      const full = `${prefix}${name}`.replaceAll(/[^a-z0-9_]/g, '_');
      const from = template === undefined ? '' : ` TEMPLATE ${new URL(template).pathname.slice(1)}`;
      await admin(adminUrl, `CREATE DATABASE ${full}${from}`);
      created.push(full);
      return withDatabase(adminUrl, full);
    },
    async stop() {
      if (cluster !== undefined) return cluster.stop();
      for (const name of created.splice(0).reverse()) {
        await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      }
    },
  };
}
