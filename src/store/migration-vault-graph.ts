// Migration 30: the vault's document graph. Directed edges between documents of one vault
// (temporal backbone, semantic neighbours, causal links), the fact-pair witnesses of causal
// edges, each document's A-MEM note (keywords, tags, context) with its evolution log, and the
// cached user profile per vault. Edges are unique per (source, target, type): inserts are
// idempotent, so build_graphs counts rows newly written.
import type { Migration } from './migration-types.js';

export const VAULT_GRAPH_MIGRATION: Migration = {
  version: 30,
  name: 'vault document graph: edges, causal witnesses, evolution, profile',
  sql: `
    CREATE TABLE vault_edges (
      id INTEGER PRIMARY KEY,
      vault TEXT NOT NULL,
      source_id INTEGER NOT NULL REFERENCES vault_documents(id),
      target_id INTEGER NOT NULL REFERENCES vault_documents(id),
      edge_type TEXT NOT NULL CHECK (edge_type IN ('temporal','semantic','causal')),
      weight REAL NOT NULL DEFAULT 1,
      origin TEXT NOT NULL DEFAULT 'built' CHECK (origin IN ('built','extracted','declared')),
      reasoning TEXT,
      confidence REAL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (source_id, target_id, edge_type),
      CHECK (source_id <> target_id)
    );
    CREATE INDEX vault_edges_target ON vault_edges(target_id, edge_type);
    CREATE INDEX vault_edges_type ON vault_edges(vault, edge_type);
    CREATE TABLE vault_causal_witnesses (
      edge_id INTEGER NOT NULL REFERENCES vault_edges(id) ON DELETE CASCADE,
      source_fact INTEGER NOT NULL,
      target_fact INTEGER NOT NULL,
      source_text TEXT NOT NULL,
      target_text TEXT NOT NULL,
      reasoning TEXT NOT NULL,
      confidence REAL NOT NULL,
      strongest_at INTEGER NOT NULL,
      last_seen_at INTEGER NOT NULL,
      PRIMARY KEY (edge_id, source_fact, target_fact)
    );
    CREATE TABLE vault_notes (
      document_id INTEGER PRIMARY KEY REFERENCES vault_documents(id),
      keywords TEXT NOT NULL DEFAULT '[]',
      tags TEXT NOT NULL DEFAULT '[]',
      context TEXT NOT NULL DEFAULT '',
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE vault_evolution (
      id INTEGER PRIMARY KEY,
      document_id INTEGER NOT NULL REFERENCES vault_documents(id),
      trigger_id INTEGER REFERENCES vault_documents(id),
      keywords_before TEXT NOT NULL,
      keywords_after TEXT NOT NULL,
      tags_before TEXT NOT NULL,
      tags_after TEXT NOT NULL,
      context_before TEXT NOT NULL,
      context_after TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX vault_evolution_document ON vault_evolution(document_id, created_at, id);
    CREATE TABLE vault_profiles (
      vault TEXT PRIMARY KEY,
      static_facts TEXT NOT NULL,
      dynamic_context TEXT NOT NULL,
      source_hash TEXT NOT NULL,
      built_at INTEGER NOT NULL
    );
  `,
};
