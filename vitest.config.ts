import { defineConfig } from 'vitest/config';

// Two projects: every test on SQLite, and, when CAIRN_TEST_PG_URL names a PostgreSQL server
// (.ci/run starts one), the backend-parameterised suites again on PostgreSQL: each test's core
// then gets a database of its own (test/pg-databases.ts).
const pgUrl = process.env['CAIRN_TEST_PG_URL'] ?? '';

/** Suites that run on both backends (test/helpers.ts `tempCore` picks the backend). */
export const POSTGRES_SUITES = [
  'test/pg/**/*.test.ts',
  'src/store/postings{,-golden}.test.ts',
  'test/memory/{search,save}.test.ts',
  'test/graph/{tools,official,graph-choice}.test.ts',
  'test/signals/**/*.test.ts',
  'test/tasks/**/*.test.ts',
  'test/teamchat/**/*.test.ts',
  'test/rooms/**/*.test.ts',
  'test/tools/**/*.test.ts',
  'test/backplane/**/*.test.ts',
  'test/concurrency/{claims,caps,dependencies,lease,inbox,refusal-circuit}.test.ts',
  'test/replicas/**/*.test.ts',
  'test/context/search-tools.test.ts',
  // Not yet on PostgreSQL: beads-sync, build-graphs, causal-derive, causal-links, every-tool, profile.
  'test/vault/{causal-pipeline,coactivation,core-embed,declared-edges,diary,evolution}.test.ts',
  'test/vault/{extraction-backlog,extraction-config,extraction-provider,kg-query}.test.ts',
  'test/vault/{serve-watch,stage-config,stage-providers,vault-tools,vault-watch}.test.ts',
];

/** Suites that need PostgreSQL (several replicas on one database): never on the SQLite run. */
const POSTGRES_ONLY = ['test/pg/**', 'test/replicas/**'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
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
        : [{ extends: true as const, test: { name: 'postgres', include: POSTGRES_SUITES } }]),
    ],
  },
});
