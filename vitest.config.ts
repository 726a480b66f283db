import { defineConfig } from 'vitest/config';

// Two projects: every test on SQLite, and, when CAIRN_TEST_PG_URL names a PostgreSQL server
// (.ci/run starts one), the backend-parameterised suites again on PostgreSQL: each test's core
// then gets a database of its own (test/pg-databases.ts).
const pgUrl = process.env['CAIRN_TEST_PG_URL'] ?? '';

/**
 * Suites that run on both backends in every CI run (test/helpers.ts `tempCore` picks the
 * backend): the PostgreSQL-only suites and one or more suites of each server and domain.
 */
export const POSTGRES_SUITES = [
  'test/pg/**/*.test.ts',
  'test/replicas/**/*.test.ts',
  'test/signals/**/*.test.ts',
  'src/store/postings{,-golden}.test.ts',
  'test/concurrency/{claims,lease}.test.ts',
  'test/rooms/**/*.test.ts',
  'test/tasks/{tools-claims,transports}.test.ts',
  'test/teamchat/{long-poll,stdio}.test.ts',
  'test/tools/{approvals-cli,pipeline}.test.ts',
  'test/backplane/{contract,processes}.test.ts',
  'test/memory/search.test.ts',
  'test/graph/tools.test.ts',
  'test/context/search-tools.test.ts',
  'test/stdio/db-url-stdio.test.ts',
  'test/vault/{vault-tools,kg-query,causal-pipeline,every-tool}.test.ts',
  'test/context/index-tools.test.ts',
  'test/hostile/sweep.test.ts',
  'test/http/{transport,dashboard-api}.test.ts',
  'test/irc/channels.test.ts',
  'test/web/approvals.test.ts',
  'test/context/memory-tools.test.ts',
  'test/vault/profile.test.ts',
  'test/http/vault-http.test.ts',
  'test/stdio/vault-stdio.test.ts',
  'test/cli/import.test.ts',
];

/**
 * The rest of the suites that pass on PostgreSQL, run with CAIRN_TEST_PG_ALL=1
 * (`npm run test:postgres`): together they would take CI past its 30 minutes on 2 cores.
 * Spawned servers and CLI commands there use the test's database (test/helpers.ts
 * processBackend, backendFor); the few tests about the SQLite file itself pick SQLite.
 */
export const POSTGRES_EXTENDED = [
  'test/memory/save.test.ts',
  'test/graph/{official,graph-choice}.test.ts',
  'test/tasks/**/*.test.ts',
  'test/teamchat/**/*.test.ts',
  'test/tools/**/*.test.ts',
  'test/backplane/**/*.test.ts',
  'test/concurrency/{caps,dependencies,inbox,refusal-circuit}.test.ts',
  'test/vault/{coactivation,core-embed,declared-edges,diary,evolution}.test.ts',
  'test/vault/{extraction-backlog,extraction-config,extraction-provider}.test.ts',
  'test/vault/{serve-watch,stage-config,stage-providers,vault-watch}.test.ts',
  'test/vault/{beads-sync,build-graphs,causal-derive,causal-links,every-tool,profile}.test.ts',
  'src/vault/**/*.test.ts',
  'src/store/vault-*.test.ts',
  'test/context/**/*.test.ts',
  'test/hostile/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/irc/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/stdio/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/modes/**/*.test.ts',
];

const pgAll = process.env['CAIRN_TEST_PG_ALL'] === '1';

/** Suites that need PostgreSQL (several replicas on one database): never on the SQLite run. */
const POSTGRES_ONLY = ['test/pg/**', 'test/replicas/**'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Files share a worker's module cache (no per-file isolation): importing the source tree
    // anew for every file cost about 1.2 s a file, a third of the run. test/file-env.ts puts back
    // what a file leaves in process.env or the working directory.
    isolate: false,
    setupFiles: ['test/file-env.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          env: { CAIRN_TEST_PG_URL: '' },
        },
      },
      ...(pgUrl === ''
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                setupFiles: ['test/pg-file-setup.ts'],
                include: pgAll ? [...POSTGRES_SUITES, ...POSTGRES_EXTENDED] : POSTGRES_SUITES,
              },
            },
          ]),
    ],
  },
});
