// Word lists for the memory bench's synthetic corpus: engineering topics with their own terms,
// plus services, people and shared words. Data only; corpus.ts decides how they are combined.

/** A topic and its specific terms, most frequent first (the sampler is Zipf-like). */
export interface Topic {
  name: string;
  terms: readonly string[];
}

const t = (name: string, terms: string): Topic => ({ name, terms: terms.split(' ') });

export const TOPICS: readonly Topic[] = [
  t(
    'deployment',
    'deploy rollout release canary rollback staging production helm chart manifest cluster pod replica image registry tag pipeline blue green freeze hotfix window promotion artifact drift',
  ),
  t(
    'database',
    'postgres migration index query schema table replica vacuum transaction deadlock lock column constraint backup restore snapshot shard partition connection pool pgbouncer autovacuum bloat',
  ),
  t(
    'auth',
    'login token session oauth password sso saml jwt refresh expiry scope permission role mfa okta cookie csrf audience issuer rotation keycloak impersonation',
  ),
  t(
    'billing',
    'invoice payment stripe subscription refund charge webhook plan coupon proration currency tax receipt dunning chargeback ledger payout trial seat upgrade downgrade',
  ),
  t(
    'frontend',
    'react component render hook state props bundle webpack vite css layout modal form button accessibility hydration router storybook tailwind tooltip dropdown theme',
  ),
  t(
    'testing',
    'test flaky fixture mock snapshot coverage vitest jest playwright assertion suite integration unit e2e seed timeout retry quarantine golden harness mutation',
  ),
  t(
    'ci',
    'build cache runner workflow job artifact lint typecheck matrix github actions step secret trigger nightly bisect docker layer buildkit queue concurrency',
  ),
  t(
    'observability',
    'log metric trace span alert dashboard grafana prometheus latency p99 error budget slo sampling cardinality otel sentry pager oncall runbook incident',
  ),
  t(
    'networking',
    'dns tls certificate proxy nginx ingress loadbalancer timeout keepalive socket port firewall vpc subnet cidr mtls envoy retry circuit breaker bandwidth',
  ),
  t(
    'caching',
    'cache redis ttl eviction invalidation hit miss warmup stampede memcached key prefix serialization lru expiry stale revalidate cdn edge purge origin',
  ),
  t(
    'search',
    'search index elasticsearch ranking relevance query analyzer tokenizer synonym facet filter reindex shard embedding vector recall precision boost highlight typo',
  ),
  t(
    'queues',
    'queue kafka consumer producer topic partition offset lag retry deadletter backpressure idempotency ordering batch ack sqs rabbitmq worker throughput poison',
  ),
  t(
    'security',
    'vulnerability cve patch audit scan secret leak encryption kms rotation pentest sbom dependency xss injection sanitize allowlist sandbox policy compliance soc2',
  ),
  t(
    'mobile',
    'ios android app release testflight crash push notification deeplink build signing provisioning offline sync battery permission store review screen gesture',
  ),
  t(
    'data',
    'etl warehouse bigquery snowflake dbt model pipeline airflow dag partition backfill schema parquet lineage freshness dashboard metric cohort funnel event',
  ),
  t(
    'infra',
    'terraform module state aws gcp bucket iam instance autoscaling node kubernetes quota region zone cost budget tagging vpc volume snapshot ami',
  ),
  t(
    'api',
    'endpoint rest graphql schema version pagination rate limit client sdk openapi contract deprecation header status error payload validation idempotency cursor batch',
  ),
  t(
    'performance',
    'latency throughput profile flamegraph memory leak gc cpu allocation benchmark regression hotpath n+1 query cache batch concurrency pool contention tail',
  ),
  t(
    'docs',
    'readme guide runbook adr changelog tutorial reference diagram onboarding glossary template wiki decision record comment docstring example faq',
  ),
  t(
    'process',
    'standup retro sprint planning estimate ticket backlog priority review approval owner handoff oncall rotation escalation postmortem roadmap milestone deadline',
  ),
  t(
    'email',
    'email smtp bounce template sendgrid deliverability spf dkim dmarc unsubscribe digest notification queue throttle preview localization footer tracking',
  ),
  t(
    'storage',
    's3 bucket object upload download multipart presigned lifecycle retention archive glacier checksum quota thumbnail blob cdn versioning encryption',
  ),
  t(
    'ml',
    'model training inference feature label dataset evaluation drift gpu batch embedding prompt finetune checkpoint accuracy threshold serving latency rollback',
  ),
  t(
    'i18n',
    'locale translation string plural timezone currency format rtl fallback crowdin message catalog date number unicode encoding collation',
  ),
];

export const SERVICES = (
  'payments-api auth-service web-app mobile-app search-indexer billing-worker notification-service ' +
  'gateway ledger scheduler reporting admin-console import-worker export-service webhook-relay ' +
  'user-profile feature-flags rate-limiter media-processor analytics-collector audit-log ' +
  'inventory checkout catalog recommendations chat-backend email-sender sync-agent cron-runner ' +
  'docs-site data-pipeline ml-ranker sso-bridge file-store metrics-agent config-service'
).split(' ');

export const PEOPLE = (
  'alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy rupert sybil ' +
  'trent victor walter yasmin zoe priya kenji amara lucas sofia mateo ingrid tomasz'
).split(' ');

export const VERBS = (
  'fails times out retries drops duplicates blocks slows down breaks crashes leaks hangs skips ' +
  'rejects throttles corrupts ignores overwrites locks expires stalls reorders truncates'
).split(' ');

export const ACTIONS = (
  'pin bump disable enable restart drain rotate increase lower split merge revert move cache ' +
  'batch shard reindex backfill document monitor alert on throttle debounce retry'
).split(' ');

export const CONDITIONS = [
  'under load',
  'after a deploy',
  'on cold start',
  'during the nightly job',
  'when the cache is empty',
  'at month end',
  'with large payloads',
  'behind the proxy',
  'on the first request after failover',
  'when two workers race',
  'in the eu region',
  'on retries',
  'during peak traffic',
] as const;

export const COMMON = (
  'config setting default limit value flag version path file directory environment variable ' +
  'customer user team request response job task step run error warning issue bug fix change ' +
  'workaround decision reason owner note rule policy convention check script command tool library ' +
  'service system process thread handler callback option parameter field record entry count size ' +
  'hour minute second day week month weekly daily nightly first last new old main legacy internal'
).split(' ');

export const QUESTION_OPENERS = [
  'how do we',
  'why does',
  'what is the fix when',
  'who owns',
  'where do we configure',
  'what did we decide about',
  'is it safe to',
  'what is the workaround if',
  'how should I',
  'what happens when',
] as const;
