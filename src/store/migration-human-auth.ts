// Migration 9: dashboard logins. One-time login codes and browser sessions, both stored only as
// SHA-256 hashes so a copy of the database cannot be replayed as a login.
import type { Migration } from './migration-types.js';

export const HUMAN_AUTH_MIGRATION: Migration = {
  version: 9,
  name: 'dashboard logins',
  sql: `
    CREATE TABLE login_codes (
      code_hash TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    ) WITHOUT ROWID;
    CREATE TABLE human_sessions (
      token_hash TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      revoked_at INTEGER
    ) WITHOUT ROWID;
  `,
};
