// The entity tool's organisation resources: org, user, team, team_member and api_key. A team
// belongs to an org; a member joins a team once and, when both have an org, the same one; an
// api_key's secret is answered once at create and stored hashed.
import { newApiKey } from './api-keys.js';
import { name, oneOf, ref, strings, system, text } from './fields.js';
import type { ResourceSpec } from './model.js';

const org: ResourceSpec = {
  key: 'org',
  tool: 'entity',
  name: 'org',
  table: 'entity_orgs',
  doc: 'An organisation (unique name)',
  fields: {
    name: name('Its name', { required: true }),
    description: text('What it is'),
  },
  unique: [['name']],
};

const user: ResourceSpec = {
  key: 'user',
  tool: 'entity',
  name: 'user',
  table: 'entity_users',
  doc: 'A person or agent account (unique email; get by `email` without an id)',
  fields: {
    email: name('Email address (unique)', { required: true }),
    name: name('Display name'),
    org_id: ref(['org'], 'The org it belongs to'),
  },
  unique: [['email']],
  scopes: { org_id: 'org_id', email: 'email' },
};

const team: ResourceSpec = {
  key: 'team',
  tool: 'entity',
  name: 'team',
  table: 'entity_teams',
  doc: 'A team of an org (unique name per org)',
  fields: {
    org_id: ref(['org'], 'The org', { required: true, fixed: true }),
    name: name('Its name', { required: true }),
    description: text('What it does'),
  },
  unique: [['org_id', 'name']],
  scopes: { org_id: 'org_id' },
};

const teamMember: ResourceSpec = {
  key: 'team_member',
  tool: 'entity',
  name: 'team_member',
  table: 'entity_team_members',
  doc: 'A user in a team, once (get or delete by team_id + user_id without an id)',
  fields: {
    team_id: ref(['team'], 'The team', { required: true, fixed: true }),
    user_id: ref(['user'], 'The user', { required: true, fixed: true }),
    role: oneOf(['member', 'lead', 'owner'], 'Their role'),
  },
  unique: [['team_id', 'user_id']],
  scopes: { team_id: 'team_id', user_id: 'user_id' },
  sameParent: [
    {
      field: 'user_id',
      column: 'org_id',
      equals: { ref: 'team_id', column: 'org_id' },
      why: 'a user of the team’s org',
    },
  ],
};

const apiKey: ResourceSpec = {
  key: 'api_key',
  tool: 'entity',
  name: 'api_key',
  table: 'entity_api_keys',
  doc: 'An API key: its secret (cairn_sk_…) is answered once at create, stored only as sha256',
  fields: {
    name: name('What it is for', { required: true }),
    org_id: ref(['org'], 'The org it acts for', { fixed: true }),
    user_id: ref(['user'], 'The user it acts for', { fixed: true }),
    scopes: strings('What it may do (free-form scope names)'),
    key_prefix: system('text', 'The secret’s first characters, to recognise it'),
    key_hash: system('text', 'sha256 of the secret', { hidden: true }),
  },
  scopes: { org_id: 'org_id', user_id: 'user_id' },
  beforeCreate: () => {
    const { secret, ...set } = newApiKey();
    return Promise.resolve({ set, extra: { secret } });
  },
};

/** The entity tool's organisation resources. */
export const ORG_RESOURCES: readonly ResourceSpec[] = [org, user, team, teamMember, apiKey];
