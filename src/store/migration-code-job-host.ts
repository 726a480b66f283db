// Migration 35: the machine a code index job's runner is on (issue 16). A runner's pid is only
// meaningful on its own machine: a job whose row names another host is judged by its lock
// (PostgreSQL) and its heartbeat, never by a local pid. Null for rows written before.
import type { Migration } from './migration-types.js';

export const CODE_JOB_HOST_MIGRATION: Migration = {
  version: 35,
  name: 'code index job host',
  sql: `ALTER TABLE code_jobs ADD COLUMN host TEXT;`,
  pg: `ALTER TABLE code_jobs ADD COLUMN host TEXT;`,
};
