// The maintained detector: @secretlint/core with the recommend preset's rules, configured once
// per scrubber. The comment filter is left out so stored text can never switch detection off
// (`secretlint-disable`), and the AWS access-key-ID scan is switched on.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';

import { type Detection, PRIORITY } from './ranges.js';
import { isPlaceholder } from './values.js';

type LintConfig = Parameters<typeof lintSource>[0]['options']['config'];
type LintMessage = Awaited<ReturnType<typeof lintSource>>['messages'][number];

const RULE_PREFIX = '@secretlint/secretlint-rule-';
const FILTER_COMMENTS = `${RULE_PREFIX}filter-comments`;
const AWS = `${RULE_PREFIX}aws`;

/** secretlint message ids → sentinel kinds. */
const KIND_BY_MESSAGE: Readonly<Record<string, string>> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  PrivateKey: 'private-key',
  PrivateKeyJSON: 'private-key',
  PrivateKeyP12: 'private-key',
  NPM_ACCESS_TOKEN: 'npm-token',
  Npmrc_authToken: 'npm-token',
  PackageJSON_xOauthToken: 'github-token',
  BasicAuth: 'basic-auth-url',
  SLACK_TOKEN: 'slack-token',
  IncomingWebhook: 'slack-webhook',
  SENDGRID_KEY: 'sendgrid-key',
  SHOPIFY_KEY: 'shopify-token',
  GITHUB_TOKEN: 'github-token',
  OPENAI_TOKEN: 'openai-key',
  ANTHROPIC_API_KEY: 'anthropic-key',
  LINEAR_API_TOKEN: 'linear-key',
  OPS_TOKEN: '1password-token',
  MongoDBConnection: 'database-url',
  MySQLConnection: 'database-url',
  PostgreSQLConnection: 'database-url',
};

/** Fallback for message ids a future preset adds: the rule's short name, kebab-cased. */
function kindOf(message: LintMessage): string {
  const known = KIND_BY_MESSAGE[message.messageId];
  if (known !== undefined) return known;
  const rule = message.ruleId.replace(RULE_PREFIX, '').replace(/[^a-z0-9]+/gi, '-');
  return `${rule.toLowerCase()}-secret`;
}

/**
 * @secretlint/profiler (through 13.0.x) records a performance mark per rule per lintSource call
 * in Node's global timeline and in an observer that never forgets them: memory grows without
 * bound and each call gets slower (secretlint#1633; opt-in profiling landed upstream only in
 * releases that need Node 22). Nothing here reads the profile, so its one singleton is muted.
 * Idempotent, and the only process-wide effect this module has.
 */
function muteProfiler(): void {
  secretLintProfiler.mark = () => undefined;
}

/**
 * Builds the lint config once: every preset rule but the comment filter, as plain rules.
 * Mutes secretlint's profiler first (see muteProfiler).
 */
export function buildLintConfig(): LintConfig {
  muteProfiler();
  const rules = presetRules
    .filter((rule) => rule.meta.id !== FILTER_COMMENTS)
    .map((rule) =>
      rule.meta.id === AWS
        ? {
            id: rule.meta.id,
            rule,
            options: { enableIDScanRule: true },
            // Account IDs identify, they do not authenticate; AWS says they are not secret.
            allowMessageIds: ['AWSAccountID'],
          }
        : { id: rule.meta.id, rule },
    );
  return { rules };
}

/**
 * Some rules report a range that does not cover the secret (the AWS secret-key rule reports
 * the key name's offset with the value's length). When the message carries the matched value,
 * locate it at or after the reported start instead.
 */
function rangeOf(text: string, message: LintMessage): [number, number] {
  const [start, end] = message.range;
  const values = Object.values(message.data ?? {}).filter(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
  if (values.some((v) => text.slice(start, end) === v)) return [start, end];
  for (const value of values.sort((a, b) => b.length - a.length)) {
    const at = text.indexOf(value, start);
    if (at >= 0 && at <= end) return [at, at + value.length];
  }
  return [start, end];
}

/** The password inside `scheme://user:password@…`, as offsets relative to the URL. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:([^\s/?#@]+)@/i;

/**
 * URL findings (basic auth, database connection strings) cover the whole URL. Narrow them to
 * the password, so the host and database name stay useful context in the stored text. A
 * placeholder password (`${DB_PASSWORD}`, an earlier sentinel) is no finding at all.
 */
function narrowUrl(text: string, [start, end]: [number, number]): [number, number] | undefined {
  const m = URL_PASSWORD.exec(text.slice(start, end));
  const password = m?.[1];
  if (m === null || password === undefined) return [start, end];
  if (isPlaceholder(password)) return undefined;
  const at = start + m[0].length - 1 - password.length;
  return [at, at + password.length];
}

const URL_KINDS = new Set(['basic-auth-url', 'database-url']);

/** Runs secretlint over `text` and returns its findings as detections. */
export async function detectWithSecretlint(text: string, config: LintConfig): Promise<Detection[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.flatMap((message) => {
    const kind = kindOf(message);
    const range = rangeOf(text, message);
    const narrowed = URL_KINDS.has(kind) ? narrowUrl(text, range) : range;
    if (narrowed === undefined) return [];
    const [start, end] = narrowed;
    return [{ kind, start, end, priority: PRIORITY.format }];
  });
}
