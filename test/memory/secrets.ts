// A corpus for end-to-end scrubbing: well-formed fake secrets of many kinds in the sentences an
// agent would really save, and look-alikes that must survive untouched. Secrets are generated
// from a seeded PRNG at run time, so no token-shaped literal is committed. The generator and
// alphabets also build the scrubber's unit corpus (src/memory/scrub.test.ts).

import { createRng } from '../rng.js';

export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const UPPER = LOWER.toUpperCase();
export const DIGITS = '0123456789';
export const ALNUM = LOWER + UPPER + DIGITS;
export const B64URL = `${ALNUM}-_`;
export const HEX = `${DIGITS}abcdef`;

/** A seeded PRNG (test/rng.ts) with helpers for token alphabets. */
export function seeded(seed: number) {
  const next = createRng(seed);
  const str = (n: number, alphabet = ALNUM): string =>
    Array.from({ length: n }, () => alphabet.charAt(Math.floor(next() * alphabet.length))).join('');
  /** At least one lower, upper and digit, as real tokens have. */
  const mixed = (n: number): string => str(1, LOWER) + str(1, UPPER) + str(1, DIGITS) + str(n - 3);
  return { str, mixed };
}

export interface SecretCase {
  kind: string;
  /** The exact secret; it must never appear in any answer or in the database file. */
  secret: string;
  /** Realistic text that contains it. */
  text: string;
}

export const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** At least 20 secrets of different kinds, each inside ordinary prose or config. */
export function secretCorpus(seed = 424242): SecretCase[] {
  const r = seeded(seed);
  const c = (kind: string, secret: string, text: (s: string) => string): SecretCase => ({
    kind,
    secret,
    text: text(secret),
  });
  const pem = `MIIEpAIBAAKCAQEA${r.str(200, `${ALNUM}+/`)}`.match(/.{1,64}/g)?.join('\n') ?? '';
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url('{"sub":"bot-3","exp":1924992000}')}.${r.str(43, B64URL)}`;
  return [
    c(
      'aws-access-key',
      `AKIA${r.str(16, UPPER + DIGITS)}`,
      (s) => `The backup job uploads to S3 as ${s} from the nightly runner.`,
    ),
    c(
      'aws-secret-key',
      r.mixed(40),
      (s) => `[prod]\naws_access_key_id = AKIA…\naws_secret_access_key = ${s}\nregion = us-east-2`,
    ),
    c(
      'github-token',
      `ghp_${r.mixed(36)}`,
      (s) => `To publish the changelog, export GH_TOKEN=${s} and run the release script.`,
    ),
    c(
      'github-fine-grained',
      `github_pat_${r.mixed(22)}_${r.mixed(59)}`,
      (s) => `Docs bot PAT is ${s}, scoped to the website repo.`,
    ),
    c(
      'slack-token',
      `xoxb-${r.str(12, DIGITS)}-${r.str(13, DIGITS)}-${r.mixed(24)}`,
      (s) => `The standup bot authenticates with ${s} in the ops workspace.`,
    ),
    c(
      'slack-webhook',
      `https://hooks.slack.com/services/T${r.str(8, UPPER + DIGITS)}/B${r.str(10, UPPER + DIGITS)}/${r.mixed(24)}`,
      (s) => `Failed deploys are announced via ${s} in #releases.`,
    ),
    c(
      'openai-project-key',
      `sk-proj-${r.mixed(74)}T3BlbkFJ${r.mixed(74)}`,
      (s) => `OPENAI_API_KEY=${s}\nOPENAI_MODEL=gpt-4o-mini`,
    ),
    c(
      'anthropic-key',
      `sk-ant-api03-${r.str(93, B64URL)}AA`,
      (s) => `The summariser agent calls Claude with ${s} (billing: research).`,
    ),
    c(
      'private-key',
      pem,
      (s) =>
        `Runner deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n${s}\n-----END RSA PRIVATE KEY-----\nInstall it under ~/.ssh.`,
    ),
    c('jwt', jwt, (s) => `Support pasted the session token ${s} while debugging the login loop.`),
    c(
      'basic-auth-url',
      r.mixed(20),
      (s) => `Mirror the repo with git clone https://mirror-bot:${s}@git.example.org/core/app.git`,
    ),
    c(
      'database-url',
      r.mixed(18),
      (s) => `Analytics reads from postgres://reporter:${s}@warehouse.internal:5432/metrics`,
    ),
    c('npm-token', `npm_${r.mixed(36)}`, (s) => `.npmrc: //registry.npmjs.org/:_authToken=${s}`),
    c('gcp-api-key', `AIza${r.mixed(35)}`, (s) => `The geocoder uses browser key ${s} for maps.`),
    c(
      'stripe-key',
      `sk_live_${r.mixed(24)}`,
      (s) => `Payments service boots with stripe.setApiKey("${s}") in production.`,
    ),
    c(
      'sendgrid-key',
      `SG.${r.mixed(22)}.${r.mixed(43)}`,
      (s) => `Transactional mail: SENDGRID_KEY=${s}`,
    ),
    c('huggingface-token', `hf_${r.mixed(34)}`, (s) => `Download the gated weights using ${s}.`),
    c('gitlab-token', `glpat-${r.mixed(20)}`, (s) => `The CI job pushes tags with ${s} on GitLab.`),
    c(
      'env-password',
      r.mixed(14),
      (s) => `# .env for staging\nDB_HOST=db.staging\nDB_PASSWORD=${s}\nDB_POOL=5`,
    ),
    c(
      'yaml-password',
      `${r.mixed(11)}!#`,
      (s) => `redis:\n  host: cache.internal\n  password: "${s}"\n  port: 6379`,
    ),
    c(
      'json-api-key',
      r.str(32, HEX),
      (s) => `{"service": "weather", "endpoint": "https://api.weather.test", "api_key": "${s}"}`,
    ),
    c(
      'client-secret',
      r.mixed(32),
      (s) =>
        `Token exchange: POST /oauth/token?client_id=cairn&client_secret=${s}&grant_type=client_credentials`,
    ),
    c(
      'bearer-token',
      r.mixed(40),
      (s) => `Reproduce with curl -H "Authorization: Bearer ${s}" https://api.internal/v2/me`,
    ),
    c(
      'linear-key',
      `lin_api_${r.mixed(40)}`,
      (s) => `The triage agent syncs issues using ${s} from the vault.`,
    ),
  ];
}

/** Text that looks secret-ish but is not: each must be stored byte for byte. */
export const LOOK_ALIKES: readonly string[] = [
  'Task 123e4567-e89b-12d3-a456-426614174000 belongs to agent 9b2c7f4e-1d3a-4c5b-8e6f-0a1b2c3d4e5f.',
  'The regression was fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (short 3f2a9c1).',
  'Our password policy needs 12 characters and the session token expires after an hour.',
  'The secret to fast builds is caching; keep secrets out of git and rotate tokens weekly.',
  'Tuning: timeout=30 retries=5 token_count=512 max_tokens: 4096 password_min_length=12',
  'Template .env: PASSWORD=<your-password>\nGITHUB_TOKEN=${GITHUB_TOKEN}\napi_key=xxx\nAPI_KEY=changeme',
  'Docs use curl -H "Authorization: Bearer <token>" or -H "Authorization: Bearer $TOKEN" against the API.',
  'AWS docs show AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY as example keys.',
  'Container pinned to image digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 today.',
  'Clone git@github.com:org/repo.git, read https://github.com/org/repo/pull/42?tab=files, db postgres://localhost:5432/app',
  'Publishable key pk_live_ is fine in the browser; the baseline uses scikit-learn (sk-learn).',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3tHfJ7oXz0kq0Jd7XbT8YbJmF4nKp9v2Rz0yQ1w2e dev@laptop',
];
