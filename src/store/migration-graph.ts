// Migration 29: the knowledge graph. Named graphs (the drop-in memory server's "default", a
// vault's scope), entities unique by name per graph with their observations (entity facts, in
// insertion order, duplicates kept as the official server keeps them), subject–predicate–object
// triples with validity, confidence, status and evidence (for kg_query), and the graph corpus
// of the postings engine: trigrams of each entity's name, type and observations.
import type { Migration } from './migration-types.js';

/** Marks an entity as the newest change (delete + insert keeps only the newest mark). */
const MARK = (id: string): string =>
  `DELETE FROM graph_postings_dirty WHERE entity_id = ${id};
   INSERT INTO graph_postings_dirty(entity_id) VALUES (${id})`;

export const GRAPH_MIGRATION: Migration = {
  version: 29,
  name: 'knowledge graph',
  sql: `
    CREATE TABLE graphs (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE graph_entities (
      id INTEGER PRIMARY KEY,
      graph_id INTEGER NOT NULL REFERENCES graphs(id),
      name TEXT NOT NULL,
      entity_type TEXT NOT NULL,
      slug TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (graph_id, name)
    );
    CREATE INDEX graph_entities_slug ON graph_entities(graph_id, slug);
    CREATE TABLE graph_observations (
      id INTEGER PRIMARY KEY,
      entity_id INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX graph_observations_entity ON graph_observations(entity_id, id);
    CREATE TABLE graph_triples (
      id INTEGER PRIMARY KEY,
      graph_id INTEGER NOT NULL REFERENCES graphs(id),
      subject TEXT NOT NULL,
      predicate TEXT NOT NULL,
      object TEXT NOT NULL,
      valid_from INTEGER,
      valid_to INTEGER,
      confidence REAL NOT NULL DEFAULT 1,
      status TEXT NOT NULL DEFAULT 'current'
        CHECK (status IN ('current','superseded','retracted')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX graph_triples_current
      ON graph_triples(graph_id, subject, object, predicate) WHERE status = 'current';
    CREATE INDEX graph_triples_object ON graph_triples(graph_id, object, status);
    CREATE INDEX graph_triples_order ON graph_triples(graph_id, status, id);
    CREATE TABLE graph_evidence (
      triple_id INTEGER NOT NULL REFERENCES graph_triples(id) ON DELETE CASCADE,
      document TEXT NOT NULL,
      fact TEXT NOT NULL DEFAULT '',
      observed_at INTEGER NOT NULL,
      PRIMARY KEY (triple_id, document, fact)
    );
    CREATE INDEX graph_evidence_recent ON graph_evidence(triple_id, observed_at);

    CREATE TABLE graph_terms (
      id INTEGER PRIMARY KEY,
      term TEXT NOT NULL UNIQUE,
      df INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE graph_postings_df (seq INTEGER PRIMARY KEY, deltas BLOB NOT NULL);
    CREATE TABLE graph_postings_docs (
      entity_id INTEGER PRIMARY KEY,
      graph_id INTEGER,
      length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      terms BLOB
    );
    CREATE INDEX graph_postings_docs_graph ON graph_postings_docs(graph_id)
      WHERE terms IS NOT NULL;
    CREATE INDEX graph_postings_docs_seq ON graph_postings_docs(seq);
    CREATE TABLE graph_postings_stats (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      docs INTEGER NOT NULL,
      total_length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      df_seq INTEGER NOT NULL
    );
    INSERT INTO graph_postings_stats(id, docs, total_length, seq, df_seq) VALUES (1, 0, 0, 0, 0);
    CREATE TABLE graph_postings_dirty (
      seq INTEGER PRIMARY KEY,
      entity_id INTEGER NOT NULL UNIQUE
    );
    CREATE TRIGGER graph_postings_ai AFTER INSERT ON graph_entities BEGIN ${MARK('new.id')}; END;
    CREATE TRIGGER graph_postings_ad AFTER DELETE ON graph_entities BEGIN ${MARK('old.id')}; END;
    CREATE TRIGGER graph_postings_au
      AFTER UPDATE OF name, entity_type, graph_id ON graph_entities BEGIN ${MARK('new.id')}; END;
    CREATE TRIGGER graph_postings_obs_ai AFTER INSERT ON graph_observations BEGIN
      ${MARK('new.entity_id')};
    END;
    CREATE TRIGGER graph_postings_obs_ad AFTER DELETE ON graph_observations BEGIN
      ${MARK('old.entity_id')};
    END;
    CREATE TRIGGER graph_postings_obs_au
      AFTER UPDATE OF content, entity_id ON graph_observations BEGIN
      ${MARK('old.entity_id')}; ${MARK('new.entity_id')};
    END;
  `,
};
