// Query expansion by a chat model (OpenAI-compatible or Ollama): a few alternative phrasings
// and keywords as JSON, read defensively. On any failure (timeout, HTTP error, malformed
// answer) the deterministic PRF expander runs instead and the report says why.
import {
  createPrfExpander,
  type ExpandedQuery,
  type Expansion,
  type QueryExpander,
} from '../expand.js';
import { chatOnce, jsonIn, record, type RemoteStage, stageLabel } from './chat.js';
import { failureReason, StageProviderError } from './http.js';

/** Most phrasings and keywords taken from an answer. */
export const MAX_PHRASINGS = 3;
export const MAX_KEYWORDS = 6;
/** Each expanded query's weight in the fusion (the original's is 1). */
export const PROVIDER_QUERY_WEIGHT = 0.4;
const MAX_QUERY_CHARS = 200;

const SYSTEM = `You expand search queries for a personal index of markdown notes. Answer with JSON only, no prose: {"queries": [up to ${MAX_PHRASINGS} alternative phrasings of the query], "keywords": [up to ${MAX_KEYWORDS} search keywords not in the query]}.`;

function strings(value: unknown, max: number, drop: ReadonlySet<string>): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  const seen = new Set(drop);
  for (const v of value) {
    if (typeof v !== 'string') continue;
    const s = v.replace(/\s+/g, ' ').trim();
    if (s === '' || s.length > MAX_QUERY_CHARS || seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    out.push(s);
    if (out.length === max) break;
  }
  return out;
}

/**
 * Phrasings and keywords of a model's answer: `{"queries": […], "keywords": […]}` (also
 * `phrasings`/`alternatives`, `terms`), or a bare array of phrasings.
 * @throws StageProviderError when it holds neither.
 */
export function parseExpansion(
  text: string,
  query: string,
): { phrasings: string[]; keywords: string[] } {
  const value = jsonIn(text);
  const body = record(value);
  const own = new Set([query.trim().toLowerCase()]);
  const phrasings = strings(
    Array.isArray(value)
      ? value
      : (body?.['queries'] ?? body?.['phrasings'] ?? body?.['alternatives']),
    MAX_PHRASINGS,
    own,
  );
  const keywords = strings(body?.['keywords'] ?? body?.['terms'], MAX_KEYWORDS, new Set());
  if (phrasings.length === 0 && keywords.length === 0) {
    throw new StageProviderError('malformed answer: no queries or keywords');
  }
  return { phrasings, keywords };
}

/** An expander asking `stage`'s chat model; `fallback` (PRF) runs when the model fails. */
export function createChatExpander(
  stage: RemoteStage,
  fallback: QueryExpander = createPrfExpander(),
): QueryExpander {
  const label = stageLabel(stage);
  return {
    name: label,
    async expand(input): Promise<Expansion> {
      let parsed: { phrasings: string[]; keywords: string[] };
      try {
        const intent = input.intent === undefined ? '' : `\nDomain: ${input.intent}`;
        const text = await chatOnce(stage, [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: `Query: ${input.query}${intent}` },
        ]);
        parsed = parseExpansion(text, input.query);
      } catch (err) {
        const used = await fallback.expand(input);
        const said = used.report ?? `${used.stage}: ${used.terms.length} terms`;
        return { ...used, report: `${said} (fallback: ${label} ${failureReason(err)})` };
      }
      const extra: ExpandedQuery[] = parsed.phrasings.map((text) => ({
        text,
        weight: PROVIDER_QUERY_WEIGHT,
        source: 'provider',
      }));
      if (parsed.keywords.length > 0) {
        extra.push({
          text: `${input.query} ${parsed.keywords.join(' ')}`,
          weight: PROVIDER_QUERY_WEIGHT,
          source: 'provider',
        });
      }
      return {
        queries: [{ text: input.query, weight: 1, source: 'original' }, ...extra],
        terms: parsed.keywords,
        stage: label,
        report: `${label}: ${extra.length} ${extra.length === 1 ? 'query' : 'queries'}`,
      };
    },
  };
}
