// Migration 15: the tasks refusal circuit. Creation-cap refusals stay out of the audit log, so
// the tasks server counts them here instead: one row per refusal (pruned once outside every
// window) and one circuit row per caller + reason, mirroring the broker's tool_circuits.
import type { Migration } from './migration-types.js';

export const TASK_CIRCUIT_MIGRATION: Migration = {
  version: 15,
  name: 'tasks refusal circuit',
  sql: `
    CREATE TABLE task_refusals (
      id INTEGER PRIMARY KEY,
      caller TEXT NOT NULL,
      reason TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX task_refusals_caller ON task_refusals(caller, reason, at);
    CREATE INDEX task_refusals_at ON task_refusals(at);
    CREATE TABLE task_circuits (
      caller TEXT NOT NULL,
      reason TEXT NOT NULL,
      open_until INTEGER NOT NULL,
      counted_from INTEGER NOT NULL,
      PRIMARY KEY (caller, reason)
    );
    CREATE INDEX task_circuits_counted ON task_circuits(counted_from);
  `,
};
