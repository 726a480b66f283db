// The query pipeline's model stages from the environment, validated at start so a typo fails
// with the variable's name, never at the first query. Defaults are offline: PRF expansion and
// the feature reranker. Builds the stages; nothing here opens a connection.
import { DEFAULT_OLLAMA_HOST, DEFAULT_OPENAI_BASE_URL, httpBaseUrl } from '../../../embed/index.js';
import { VaultConfigError } from '../../errors.js';
import { createNoExpander, createPrfExpander, type QueryExpander } from '../expand.js';
import type { QueryStages } from '../pipeline.js';
import { createFeatureReranker, type Reranker } from '../rerank.js';
import type { RemoteStage } from './chat.js';
import { createChatExpander } from './expansion.js';
import { createProviderReranker } from './rerank.js';

export const EXPANSION_KINDS = ['none', 'prf', 'openai', 'ollama'] as const;
export const RERANK_KINDS = ['features', 'openai', 'ollama'] as const;
export const DEFAULT_STAGE_TIMEOUT_MS = 5000;
export const DEFAULT_CHAT_MODEL = { openai: 'gpt-4o-mini', ollama: 'llama3.2' } as const;
const DEFAULT_URL = { openai: DEFAULT_OPENAI_BASE_URL, ollama: DEFAULT_OLLAMA_HOST };

export interface VaultStagesConfig {
  readonly expansion: { readonly kind: 'none' } | { readonly kind: 'prf' } | RemoteStage;
  readonly rerank: { readonly kind: 'features' } | RemoteStage;
}

type Env = Readonly<Record<string, string | undefined>>;

const read = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

function kindOf<K extends string>(env: Env, name: string, kinds: readonly K[], fallback: K): K {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const found = kinds.find((k) => k === raw.toLowerCase());
  if (found === undefined)
    throw new VaultConfigError(
      name,
      `must be one of ${kinds.join(', ')} (got ${JSON.stringify(raw)})`,
    );
  return found;
}

/** The base URL variable `name` (else `fallback`), as the embedders read theirs. Not echoed. */
function urlOf(env: Env, name: string, fallback: string | undefined): string {
  const raw = read(env, name) ?? fallback;
  if (raw === undefined) throw new VaultConfigError(name, 'is required for this provider');
  const url = httpBaseUrl(raw);
  if (url === null) throw new VaultConfigError(name, 'must be an http(s) URL');
  return url;
}

function timeoutOf(env: Env, name: string, fallback = DEFAULT_STAGE_TIMEOUT_MS): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 120_000)
    throw new VaultConfigError(
      name,
      `must be a whole number of ms from 1 to 120000 (got ${JSON.stringify(raw)})`,
    );
  return n;
}

/** `prefix` is CAIRN_VAULT_EXPANSION or CAIRN_VAULT_RERANK; `chat` says whether a model is needed. */
function remote(
  env: Env,
  prefix: string,
  kind: 'openai' | 'ollama',
  chat: boolean,
  defaults: { model?: string | undefined; timeoutMs?: number } = {},
): RemoteStage {
  const shared = kind === 'openai' ? read(env, 'OPENAI_BASE_URL') : read(env, 'OLLAMA_HOST');
  // OpenAI itself has no /rerank: an OpenAI-compatible rerank server must be named.
  const fallbackUrl = !chat && kind === 'openai' ? undefined : (shared ?? DEFAULT_URL[kind]);
  const url = urlOf(env, `${prefix}_URL`, fallbackUrl);
  const apiKey =
    read(env, `${prefix}_API_KEY`) ?? (kind === 'openai' ? read(env, 'OPENAI_API_KEY') : undefined);
  if (kind === 'openai' && apiKey === undefined && new URL(url).hostname === 'api.openai.com')
    throw new VaultConfigError(
      `${prefix}_API_KEY`,
      `is required when ${prefix}=openai uses api.openai.com (or set OPENAI_API_KEY)`,
    );
  const model =
    defaults.model ??
    read(env, `${prefix}_MODEL`) ??
    (chat || kind === 'ollama' ? DEFAULT_CHAT_MODEL[kind] : undefined);
  return {
    kind,
    url,
    ...(model === undefined ? {} : { model }),
    ...(apiKey === undefined ? {} : { apiKey }),
    timeoutMs: timeoutOf(env, `${prefix}_TIMEOUT_MS`, defaults.timeoutMs),
  };
}

/**
 * The model stages of an environment:
 *
 * | Variable | Meaning | Default |
 * | --- | --- | --- |
 * | `CAIRN_VAULT_EXPANSION` | `none`, `prf`, `openai` (chat completions) or `ollama` (/api/chat) | `prf` |
 * | `CAIRN_VAULT_RERANK` | `features`, `openai` (a `/rerank` endpoint) or `ollama` (chat scoring) | `features` |
 * | `…_URL` | base URL | `OPENAI_BASE_URL`/`OLLAMA_HOST`, else the public defaults; rerank=openai requires it |
 * | `…_MODEL` | model | `gpt-4o-mini` / `llama3.2`; rerank=openai sends none unless set |
 * | `…_API_KEY` | bearer token | `OPENAI_API_KEY` for openai |
 * | `…_TIMEOUT_MS` | per-call deadline (then the deterministic stage runs) | `5000` |
 *
 * @throws VaultConfigError naming the first unusable variable.
 */
export function vaultStagesFromEnv(env: Env): VaultStagesConfig {
  const e = kindOf(env, 'CAIRN_VAULT_EXPANSION', EXPANSION_KINDS, 'prf');
  const r = kindOf(env, 'CAIRN_VAULT_RERANK', RERANK_KINDS, 'features');
  return {
    expansion:
      e === 'none' || e === 'prf' ? { kind: e } : remote(env, 'CAIRN_VAULT_EXPANSION', e, true),
    rerank: r === 'features' ? { kind: r } : remote(env, 'CAIRN_VAULT_RERANK', r, false),
  };
}

/** The stages a configuration names; providers fall back to PRF and the feature reranker. */
export function createQueryStages(config: VaultStagesConfig): QueryStages {
  const e = config.expansion;
  const expander: QueryExpander =
    e.kind === 'none'
      ? createNoExpander()
      : e.kind === 'prf'
        ? createPrfExpander()
        : createChatExpander(e);
  const r = config.rerank;
  const reranker: Reranker =
    r.kind === 'features' ? createFeatureReranker() : createProviderReranker(r);
  return { expander, reranker };
}

export const EXTRACTION_KINDS = ['deterministic', 'openai', 'ollama'] as const;
/** A whole document's triples take longer than a query stage's answer. */
export const DEFAULT_EXTRACTION_TIMEOUT_MS = 30_000;

/**
 * The optional fact extraction model: `CAIRN_VAULT_EXTRACTION` is `deterministic` (default,
 * no model), `openai` or `ollama`, or `openai:<model>` / `ollama:<model>`; then
 * `CAIRN_VAULT_EXTRACTION_URL`, `_MODEL`, `_API_KEY` and `_TIMEOUT_MS` (default 30000) as for
 * the other stages. Null when no model is configured.
 * @throws VaultConfigError naming the first unusable variable.
 */
export function vaultExtractionFromEnv(env: Env): RemoteStage | null {
  const name = 'CAIRN_VAULT_EXTRACTION';
  const raw = read(env, name);
  const colon = raw?.indexOf(':') ?? -1;
  const head = raw === undefined || colon < 0 ? raw : raw.slice(0, colon);
  const kind = kindOf({ [name]: head }, name, EXTRACTION_KINDS, 'deterministic');
  if (kind === 'deterministic') {
    if (colon >= 0) throw new VaultConfigError(name, 'takes no model when deterministic');
    return null;
  }
  const model = raw === undefined || colon < 0 ? undefined : raw.slice(colon + 1).trim();
  if (model === '') throw new VaultConfigError(name, `names no model after "${kind}:"`);
  return remote(env, name, kind, true, { model, timeoutMs: DEFAULT_EXTRACTION_TIMEOUT_MS });
}
