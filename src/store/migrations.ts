// Forward-only, numbered schema migrations applied when a store opens. Never edit a
// migration that has shipped: add the next number instead.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'board',
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        team_id TEXT,
        parent_task_id TEXT REFERENCES tasks(id),
        depth INTEGER NOT NULL DEFAULT 0,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN
          ('backlog','todo','in_progress','in_review','blocked','done','cancelled')),
        priority INTEGER NOT NULL DEFAULT 0,
        assignee_agent_id TEXT,
        assignee_runtime TEXT,
        lease_expires_at INTEGER,
        created_via TEXT NOT NULL DEFAULT 'api',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE INDEX tasks_parent ON tasks(parent_task_id);
      CREATE INDEX tasks_status ON tasks(status, priority DESC, created_at);
      CREATE INDEX tasks_team ON tasks(team_id, status);
      CREATE INDEX tasks_roots_recent ON tasks(created_at) WHERE parent_task_id IS NULL;
      CREATE INDEX tasks_lease ON tasks(lease_expires_at) WHERE status = 'in_progress';

      CREATE TABLE task_comments (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        body TEXT NOT NULL,
        author_agent_id TEXT,
        author_type TEXT NOT NULL CHECK (author_type IN ('agent','user','system')),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX task_comments_task ON task_comments(task_id, created_at);

      CREATE TABLE task_dependencies (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        depends_on_task_id TEXT NOT NULL REFERENCES tasks(id),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (task_id, depends_on_task_id)
      );
      CREATE INDEX task_dependencies_rev ON task_dependencies(depends_on_task_id);
    `,
  },
];
