// The vault's co-activation: documents one session reads together. A session's working set
// (the documents it read within the window, newest first) and, per pair of documents of one
// vault, how many times a session brought them together (doc_a < doc_b). The scorer reads a
// candidate's co-activations with the other candidates of the same query.
import type { Migration } from './migration-types.js';

export const VAULT_COACTIVATION_MIGRATION: Migration = {
  version: 25,
  name: 'vault co-activation: session working sets and document pairs',
  sql: `
    CREATE TABLE vault_session_docs (
      vault TEXT NOT NULL,
      session_key TEXT NOT NULL,
      document_id INTEGER NOT NULL REFERENCES vault_documents(id),
      at INTEGER NOT NULL,
      PRIMARY KEY (vault, session_key, document_id)
    );
    CREATE INDEX vault_session_docs_at ON vault_session_docs(at);
    CREATE TABLE vault_coactivations (
      vault TEXT NOT NULL,
      doc_a INTEGER NOT NULL REFERENCES vault_documents(id),
      doc_b INTEGER NOT NULL REFERENCES vault_documents(id),
      count INTEGER NOT NULL,
      last_at INTEGER NOT NULL,
      PRIMARY KEY (vault, doc_a, doc_b),
      CHECK (doc_a < doc_b)
    );
    CREATE INDEX vault_coactivations_b ON vault_coactivations(vault, doc_b);
  `,
};
