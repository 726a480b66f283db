// Migration 28: the context server's project and entity tools. One table per resource, with
// real columns for parent references (so integrity and "who depends on this" are plain
// queries), a per-table `seq` for stable creation order, and the writer's provenance.
import type { Migration } from './migration-types.js';

/** Columns every resource table has (frozen with this migration). */
const COMMON = `
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  created_by TEXT,
  updated_by TEXT,
  provenance TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL`;

const table = (name: string, columns: string): string =>
  `CREATE TABLE ${name} (${COMMON},${columns}\n);\nCREATE UNIQUE INDEX ${name}_seq ON ${name}(seq);\n`;

const PROJECT_TABLES = [
  table('projects', `name TEXT NOT NULL, description TEXT, status TEXT NOT NULL`),
  table(
    'project_phases',
    `project_id TEXT NOT NULL REFERENCES projects(id), name TEXT NOT NULL, description TEXT,
     status TEXT NOT NULL, position INTEGER, UNIQUE (project_id, name)`,
  ),
  table(
    'project_issues',
    `project_id TEXT NOT NULL REFERENCES projects(id), phase_id TEXT REFERENCES project_phases(id),
     title TEXT NOT NULL, description TEXT, status TEXT NOT NULL,
     priority INTEGER NOT NULL DEFAULT 0, assignee TEXT, task_id TEXT`,
  ),
  table(
    'project_dependencies',
    `project_id TEXT NOT NULL REFERENCES projects(id), from_id TEXT NOT NULL,
     depends_on_id TEXT NOT NULL, note TEXT, UNIQUE (from_id, depends_on_id)`,
  ),
  table(
    'project_decisions',
    `project_id TEXT NOT NULL REFERENCES projects(id), title TEXT NOT NULL, decision TEXT,
     rationale TEXT, status TEXT NOT NULL, issue_id TEXT REFERENCES project_issues(id)`,
  ),
];

const ORG_TABLES = [
  table('entity_orgs', `name TEXT NOT NULL UNIQUE, description TEXT`),
  table(
    'entity_users',
    `email TEXT NOT NULL UNIQUE, name TEXT, org_id TEXT REFERENCES entity_orgs(id)`,
  ),
  table(
    'entity_teams',
    `org_id TEXT NOT NULL REFERENCES entity_orgs(id), name TEXT NOT NULL, description TEXT,
     UNIQUE (org_id, name)`,
  ),
  table(
    'entity_team_members',
    `team_id TEXT NOT NULL REFERENCES entity_teams(id),
     user_id TEXT NOT NULL REFERENCES entity_users(id), role TEXT NOT NULL,
     UNIQUE (team_id, user_id)`,
  ),
  table(
    'entity_api_keys',
    `name TEXT NOT NULL, org_id TEXT REFERENCES entity_orgs(id),
     user_id TEXT REFERENCES entity_users(id), scopes TEXT NOT NULL DEFAULT '[]',
     key_prefix TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE`,
  ),
];

const VCS_TABLES = [
  table(
    'entity_repositories',
    `org_id TEXT REFERENCES entity_orgs(id), project_id TEXT REFERENCES projects(id),
     name TEXT NOT NULL, url TEXT, path TEXT, default_branch TEXT`,
  ),
  table(
    'entity_branches',
    `repository_id TEXT NOT NULL REFERENCES entity_repositories(id), name TEXT NOT NULL,
     head_commit TEXT, UNIQUE (repository_id, name)`,
  ),
  table(
    'entity_worktrees',
    `repository_id TEXT NOT NULL REFERENCES entity_repositories(id),
     branch_id TEXT REFERENCES entity_branches(id), path TEXT NOT NULL UNIQUE`,
  ),
];

const WORK_TABLES = [
  table(
    'entity_issues',
    `org_id TEXT REFERENCES entity_orgs(id), project_id TEXT REFERENCES projects(id),
     repository_id TEXT REFERENCES entity_repositories(id), title TEXT NOT NULL, body TEXT,
     status TEXT NOT NULL, assignee TEXT, task_id TEXT`,
  ),
  table(
    'entity_comments',
    `issue_id TEXT NOT NULL REFERENCES entity_issues(id),
     user_id TEXT REFERENCES entity_users(id), author TEXT, body TEXT NOT NULL`,
  ),
  table('entity_labels', `org_id TEXT REFERENCES entity_orgs(id), name TEXT NOT NULL, color TEXT`),
  table(
    'entity_label_assignments',
    `issue_id TEXT NOT NULL REFERENCES entity_issues(id),
     label_id TEXT NOT NULL REFERENCES entity_labels(id), UNIQUE (issue_id, label_id)`,
  ),
  table(
    'entity_assignments',
    `worktree_id TEXT NOT NULL REFERENCES entity_worktrees(id), agent TEXT NOT NULL,
     user_id TEXT REFERENCES entity_users(id), issue_id TEXT REFERENCES entity_issues(id),
     task_id TEXT, purpose TEXT, released_at INTEGER, released_by TEXT`,
  ),
  table(
    'entity_plans',
    `org_id TEXT REFERENCES entity_orgs(id), project_id TEXT REFERENCES projects(id),
     repository_id TEXT REFERENCES entity_repositories(id), title TEXT NOT NULL,
     description TEXT, status TEXT NOT NULL`,
  ),
  table(
    'entity_plan_versions',
    `plan_id TEXT NOT NULL REFERENCES entity_plans(id), number INTEGER NOT NULL,
     content TEXT NOT NULL, note TEXT, UNIQUE (plan_id, number)`,
  ),
  table(
    'entity_reviews',
    `plan_version_id TEXT NOT NULL REFERENCES entity_plan_versions(id), reviewer TEXT NOT NULL,
     status TEXT NOT NULL, body TEXT`,
  ),
];

export const ENTITIES_MIGRATION: Migration = {
  version: 28,
  name: 'project and entity resources',
  sql: [...PROJECT_TABLES, ...ORG_TABLES, ...VCS_TABLES, ...WORK_TABLES].join('\n'),
};
