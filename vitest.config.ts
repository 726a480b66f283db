import { defineConfig } from 'vitest/config';

// Two projects: every test on SQLite, and, when CAIRN_TEST_PG_URL names a PostgreSQL server
// (.ci/run starts one), the backend-parameterised suites again on PostgreSQL: each test's core
// then gets a database of its own (test/pg-databases.ts).
const pgUrl = process.env['CAIRN_TEST_PG_URL'] ?? '';

/**
 * Suites that run on both backends (test/helpers.ts `tempCore` picks the backend): the
 * PostgreSQL-only suites and every server's and domain's suites. Spawned servers and CLI
 * commands use the test's database (test/helpers.ts processBackend, backendFor); the few tests
 * about the SQLite file itself pick SQLite.
 */
export const POSTGRES_SUITES = [
  'test/pg/**/*.test.ts',
  'test/replicas/**/*.test.ts',
  'test/signals/**/*.test.ts',
  'src/store/postings{,-golden}.test.ts',
  'src/store/vault-*.test.ts',
  'src/vault/**/*.test.ts',
  'test/concurrency/{claims,lease,caps,dependencies,inbox,refusal-circuit}.test.ts',
  'test/rooms/**/*.test.ts',
  'test/tasks/**/*.test.ts',
  'test/teamchat/**/*.test.ts',
  'test/tools/**/*.test.ts',
  'test/backplane/**/*.test.ts',
  'test/memory/{search,save}.test.ts',
  'test/graph/{tools,official,graph-choice}.test.ts',
  'test/context/**/*.test.ts',
  'test/vault/**/*.test.ts',
  'test/hostile/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/irc/**/*.test.ts',
  'test/web/**/*.test.ts',
  'test/stdio/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/modes/**/*.test.ts',
];

/**
 * Files under POSTGRES_SUITES that never open a PostgreSQL database (test/pg-file-setup.ts
 * names such a file): pure functions, or tests of the SQLite file itself (processes sharing one
 * file, a missing or pre-migration file, the CLI's help). They would run exactly as on SQLite.
 */
export const SQLITE_ONLY_SUITES = [
  'src/vault/{beads,causal,markdown,notes}.test.ts',
  'src/vault/{scoring/scoring,query/query}.test.ts',
  'test/backplane/processes.test.ts',
  'test/rooms/sequences.test.ts',
  'test/teamchat/stdio.test.ts',
  'test/cli/{help,migrate-store,missing-db,readme}.test.ts',
  'test/modes/cli.test.ts',
  'test/web/{connect-choices,task-history}.test.ts',
];

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
                include: POSTGRES_SUITES,
                exclude: SQLITE_ONLY_SUITES,
              },
            },
          ]),
    ],
  },
});
