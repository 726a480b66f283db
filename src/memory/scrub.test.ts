// The secret scrubber against a corpus of fake-but-well-formed secrets in realistic text (each
// must vanish) and look-alikes (each must survive byte for byte). Secrets are generated from a
// seeded PRNG at run time, so no token-shaped literal is committed.
import { describe, expect, it } from 'vitest';

import { ALNUM, B64URL, b64url, DIGITS, HEX, seeded, UPPER } from '../../test/memory/secrets.js';
import { createScrubber, requireContent, SecretOnlyContentError } from './scrub.js';

interface Case {
  kind: string;
  secret: string;
  text: string;
}

/** The corpus: [kind, secret, text with `§` where the secret goes]. */
function buildCorpus(): Case[] {
  const r = seeded(20240501);
  const pem = `MIIEowIBAAKCAQEA${r.str(240, ALNUM + '+/')}`.match(/.{1,64}/g)?.join('\n') ?? '';
  const jwt = [
    b64url('{"alg":"HS256","typ":"JWT"}'),
    b64url('{"sub":"agent-7"}'),
    r.str(43, B64URL),
  ];
  const slackHook = `T${r.str(8, UPPER + DIGITS)}/B${r.str(10, UPPER + DIGITS)}/${r.mixed(24)}`;
  // prettier-ignore
  const rows: [kind: string, secret: string, text: string][] = [
    ['aws-access-key', `AKIA${r.str(16, UPPER + DIGITS)}`, 'The deploy bot signs S3 uploads as §; rotate it monthly.'],
    ['aws-secret-key', r.mixed(40), '[default]\naws_access_key_id = AKIA…\naws_secret_access_key = §\nregion = eu-west-1'],
    ['github-token', `ghp_${r.mixed(36)}`, 'Before releasing, run `export GH_TOKEN=§` then npm run release.'],
    ['github-token', `github_pat_${r.mixed(22)}_${r.mixed(59)}`, 'Fine-grained PAT for the docs repo: § (expires in 30 days)'],
    ['slack-token', `xoxb-${r.str(12, DIGITS)}-${r.str(13, DIGITS)}-${r.mixed(24)}`, 'Slack bot token is § — workspace #ops.'],
    ['slack-webhook', `https://hooks.slack.com/services/${slackHook}`, 'Alerts post to § when the build breaks.'],
    ['openai-key', `sk-proj-${r.mixed(74)}T3BlbkFJ${r.mixed(74)}`, 'OPENAI_API_KEY=§\nMODEL=gpt-4o-mini'],
    ['openai-key', `sk-${r.mixed(48)}`, 'The old eval harness still reads the legacy key § from its config.'],
    ['anthropic-key', `sk-ant-api03-${r.str(93, B64URL)}AA`, 'Use § for the summariser agent.'],
    ['private-key', pem, 'Deploy key:\n-----BEGIN RSA PRIVATE KEY-----\n§\n-----END RSA PRIVATE KEY-----\nAdd it to the runner.'],
    ['private-key', pem.replace(/\n/g, '\\n'), '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n§\\n-----END PRIVATE KEY-----\\n"}'],
    ['private-key', `b3BlbnNzaC1rZXktdjE${r.str(51, ALNUM + '+/')}\n${r.str(14)}`, 'Pasted (cut off):\n-----BEGIN OPENSSH PRIVATE KEY-----\n§'],
    ['jwt', jwt.join('.'), 'The session cookie was §; it expires at midnight.'],
    ['basic-auth-url', r.mixed(20), 'Mirror with git clone https://deploy-bot:§@git.example.net/team/repo.git'],
    ['database-url', r.mixed(16), 'DATABASE_URL is postgres://app:§@db.internal:5432/app?sslmode=require'],
    ['npm-token', `npm_${r.mixed(36)}`, '//registry.npmjs.org/:_authToken=§'],
    ['gcp-key', `AIza${r.mixed(35)}`, 'Maps key § is restricted to our domain.'],
    ['stripe-key', `sk_live_${r.mixed(24)}`, 'Billing uses stripe.setApiKey("§") in prod.'],
    ['sendgrid-key', `SG.${r.mixed(22)}.${r.mixed(43)}`, 'Mailer: SENDGRID=§'],
    ['linear-key', `lin_api_${r.mixed(40)}`, 'Linear sync reads § from the vault.'],
    ['huggingface-token', `hf_${r.mixed(34)}`, 'Pull the gated model with token § please.'],
    ['gitlab-token', `glpat-${r.mixed(20)}`, 'CI pushes tags with § on gitlab.'],
    ['shopify-token', `shpat_${r.str(32, HEX)}`, 'Store admin: §'],
    ['password', r.mixed(14), '# .env\nDB_HOST=db.internal\nDB_PASSWORD=§\nDB_POOL=10'],
    ['password', `${r.mixed(10)}!#`, 'database:\n  user: app\n  password: "§"\n  port: 5432'],
    ['password', 'hunter22', "Note to self: the staging admin password: §, don't share."],
    ['password', 'Tr0ub4dor&3', 'mysql.cnf has passwd=§ for the replica'],
    ['api-key', r.str(32, HEX), '{"endpoint": "https://api.weather.test", "api_key": "§"}'],
    ['secret', r.mixed(32), 'POST /oauth/token?client_id=cairn&client_secret=§&grant_type=client_credentials'],
    ['token', r.mixed(28), "const accessToken = '§'; // from the admin console"],
    ['bearer-token', r.mixed(40), 'curl -H "Authorization: Bearer §" https://api.internal/v1/me'],
    ['basic-auth', b64url(`admin:${r.mixed(12)}`), 'Proxy needs Authorization: Basic §'],
  ];
  return rows.map(([kind, secret, text]) => ({
    kind,
    secret,
    text: text.replace('§', () => secret),
  }));
}

const LOOK_ALIKES: readonly string[] = [
  'Task 123e4567-e89b-12d3-a456-426614174000 is assigned to agent 9b2c7f4e-1d3a-4c5b-8e6f-0a1b2c3d4e5f.',
  'Fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (short 3f2a9c1).',
  'The password policy requires 12 characters, and the token expires after an hour.',
  'The secret to fast builds is caching; keep secrets out of the repo and rotate tokens weekly.',
  'Config: timeout=30 retries=5 token_count=512 max_tokens: 4096 password_min_length=12',
  'Example .env: PASSWORD=<your-password>\nGITHUB_TOKEN=${GITHUB_TOKEN}\napi_key=xxx\nAPI_KEY=changeme\nsecret: ********',
  'curl -H "Authorization: Bearer <token>" -H "Authorization: Bearer $TOKEN" https://api.test',
  'AWS documents AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY as examples.',
  `-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----`,
  `-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----`,
  '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq3tHfJ7oXz0kq0Jd7XbT8YbJmF4nKp9v2Rz0yQ1w2e dev@laptop',
  'Logo: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'Image digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 pinned.',
  'Docs at https://github.com/org/repo/pull/42?tab=files; clone git@github.com:org/repo.git; db postgres://localhost:5432/app',
  'yaml: password: required\nToken: the unit an LLM reads.\nauth: oauth2',
  'Publishable key pk_live_ is safe in the browser; we use scikit-learn (sk-learn) for the baseline.',
  'Deployed 2024-05-01T12:30:00Z; see @secretlint/core and pwd: /home/agent/work',
  "db: password: !vault |\nlogin(user=self.user, passwd=self.password, token=os.environ['TOKEN'])",
  'password = getpass.getpass()\naws_secret_access_key=aws_secret_access_key, fmt="SECRET_TOKEN: %s"',
];

describe('scrubber corpus', () => {
  const scrubber = createScrubber();
  const corpus = buildCorpus();

  it('has at least 20 secrets and 10 look-alikes', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(new Set(corpus.map((k) => k.kind)).size).toBeGreaterThanOrEqual(20);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(corpus.map((k, i) => [`${i} ${k.kind}`, k] as const))('redacts %s', async (_, k) => {
    const result = await scrubber.scrub(k.text);
    expect(result.text).not.toContain(k.secret);
    expect(result.text).toContain(`[REDACTED:${k.kind}]`);
    const at = k.text.indexOf(k.secret);
    const hit = result.findings.find((f) => f.start <= at && f.end >= at + k.secret.length);
    expect(hit?.kind).toBe(k.kind);
    expect(result.onlySentinels).toBe(false);
  });

  it.each(LOOK_ALIKES.map((t) => [t.slice(0, 40), t] as const))('keeps %s', async (_, text) => {
    const result = await scrubber.scrub(text);
    expect(result.findings).toEqual([]);
    expect(result.text).toBe(text);
  });
});

describe('scrubber behaviour', () => {
  const scrubber = createScrubber();
  const r = seeded(7);

  it('reports findings at the secret offsets in the original text', async () => {
    const gh = `ghp_${r.mixed(36)}`;
    const pw = r.mixed(12);
    const text = `token ${gh} and DB_PASSWORD=${pw}.`;
    const { findings } = await scrubber.scrub(text);
    expect(findings.map((f) => [f.kind, text.slice(f.start, f.end)])).toEqual([
      ['github-token', gh],
      ['password', pw],
    ]);
  });

  it('marks content that is only secrets, and not content with real text left', async () => {
    const gh = `ghp_${r.mixed(36)}`;
    const aws = `AKIA${r.str(16, UPPER + DIGITS)}`;
    expect((await scrubber.scrub(gh)).onlySentinels).toBe(true);
    expect((await scrubber.scrub(`  ${gh}\n\t${aws} ;\n`)).onlySentinels).toBe(true);
    expect((await scrubber.scrub(`deploy token: ${gh}`)).onlySentinels).toBe(false);
    expect((await scrubber.scrub('no secrets here')).onlySentinels).toBe(false);
  });

  it('is idempotent', async () => {
    for (const k of buildCorpus()) {
      const once = await scrubber.scrub(k.text);
      const twice = await scrubber.scrub(once.text);
      expect(twice).toEqual({ text: once.text, findings: [], onlySentinels: once.onlySentinels });
    }
  });

  it('handles the empty string', async () => {
    expect(await scrubber.scrub('')).toEqual({ text: '', findings: [], onlySentinels: false });
  });

  it('scrubs secrets next to non-ASCII text with UTF-16 offsets', async () => {
    const gh = `ghp_${r.mixed(36)}`;
    const key = `sk-ant-api03-${r.str(93, B64URL)}AA`;
    const text = `🔑 密钥${gh}是 — clé: ${key} ✓ naïve`;
    const result = await scrubber.scrub(text);
    expect(result.text).toBe(
      '🔑 密钥[REDACTED:github-token]是 — clé: [REDACTED:anthropic-key] ✓ naïve',
    );
    expect(result.findings.map((f) => text.slice(f.start, f.end))).toEqual([gh, key]);
  });

  it('scrubs a 64 KiB text with secrets at both ends', async () => {
    const head = `ghp_${r.mixed(36)}`;
    const tail = `AKIA${r.str(16, UPPER + DIGITS)}`;
    const filler = 'The agent noted that the build cache helps. '.repeat(1_500);
    const text = `${head} ${filler} ${tail}`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const result = await scrubber.scrub(text);
    expect(result.findings.map((f) => f.kind)).toEqual(['github-token', 'aws-access-key']);
    expect(result.text).toBe(`[REDACTED:github-token] ${filler} [REDACTED:aws-access-key]`);
  });

  it('cannot be switched off by secretlint-disable comments in the content', async () => {
    const gh = `ghp_${r.mixed(36)}`;
    const text = `// secretlint-disable\n${gh} // secretlint-disable-line`;
    expect((await scrubber.scrub(text)).text).not.toContain(gh);
  });

  it('keeps secretlint profiler marks out of the global performance timeline', async () => {
    await scrubber.scrub(`ghp_${r.mixed(36)}`);
    const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('@core>'));
    expect(marks).toEqual([]);
  });

  it('merges overlapping detections into one sentinel of the most specific kind', async () => {
    const key = `sk-proj-${r.mixed(60)}`;
    const result = await scrubber.scrub(`"openai_api_key": "${key}"`);
    expect(result.text).toBe('"openai_api_key": "[REDACTED:openai-key]"');
    expect(result.findings).toHaveLength(1);
  });

  it('honours allow-listed values and extra secret key words', async () => {
    const demo = `ghp_${r.mixed(36)}`;
    const custom = createScrubber({ allow: [demo], secretKeyWords: ['PIN'] });
    expect((await custom.scrub(`demo ${demo}`)).text).toBe(`demo ${demo}`);
    expect((await custom.scrub('door_pin=9a8b7c6d')).text).toBe('door_pin=[REDACTED:secret]');
  });
});

describe('requireContent', () => {
  const scrubber = createScrubber();
  const gh = `ghp_${seeded(3).mixed(36)}`;

  it('declines content that is nothing but secrets, without echoing them', async () => {
    const result = await scrubber.scrub(` ${gh}\n`);
    const err = (() => {
      try {
        return requireContent(result, 'content');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SecretOnlyContentError);
    expect(err).toMatchObject({
      code: 'secret_only',
      denied: 'secret_only',
      kinds: ['github-token'],
    });
    expect((err as Error).message).toMatch(/^save declined: content is nothing but secrets/);
    expect((err as Error).message).not.toContain(gh);
  });

  it('returns the scrubbed text when real content remains', async () => {
    const result = await scrubber.scrub(`CI token ${gh}`);
    expect(requireContent(result, 'content')).toBe('CI token [REDACTED:github-token]');
  });
});
