// Reranking by a provider: an OpenAI-compatible / Jina / Cohere-style `POST {url}/rerank`
// (query + documents → relevance scores), or an Ollama chat model asked for a 0–10 relevance
// per document. On any failure the feature reranker runs instead and the report says why.
import {
  createFeatureReranker,
  type Reranked,
  type Reranker,
  type Reranking,
  type RerankInput,
} from '../rerank.js';
import { chatOnce, jsonIn, record, type RemoteStage, stageLabel } from './chat.js';
import { failureReason, postStage, StageProviderError } from './http.js';

/** Characters of each candidate sent to a provider (title first). */
export const RERANK_DOC_CHARS = 1200;
const OLLAMA_DOC_CHARS = 400;

const docOf = (c: { title: string; text: string }, chars: number): string =>
  `${c.title}\n${c.text}`.slice(0, chars);

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Scores by candidate position from a `/rerank` answer: `{results: […]}` or a bare array. */
export function parseRerank(answer: unknown, count: number): (number | undefined)[] {
  const body = record(answer);
  const items: unknown[] = Array.isArray(answer)
    ? answer
    : Array.isArray(body?.['results'])
      ? body['results']
      : Array.isArray(body?.['data'])
        ? body['data']
        : [];
  const scores = new Array<number | undefined>(count).fill(undefined);
  for (const item of items) {
    const r = record(item);
    const index = r?.['index'];
    const score = r?.['relevance_score'] ?? r?.['score'];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count)
      continue;
    if (typeof score !== 'number' || !Number.isFinite(score)) continue;
    scores[index] = score;
  }
  if (scores.every((s) => s === undefined))
    throw new StageProviderError('malformed answer: no results[].index/relevance_score');
  // Cross-encoder logits (outside [0, 1]) go through a sigmoid so relevance stays a share.
  const logits = scores.some((s) => s !== undefined && (s < 0 || s > 1));
  return scores.map((s) => (s === undefined ? undefined : logits ? sigmoid(s) : s));
}

/** Scores by position from an Ollama answer: `{"scores": [0–10, …]}` or a bare array. */
export function parseChatScores(text: string, count: number): number[] {
  const value = jsonIn(text);
  const list = Array.isArray(value) ? value : record(value)?.['scores'];
  if (!Array.isArray(list) || list.length !== count)
    throw new StageProviderError(`malformed answer: expected ${count} scores`);
  return list.map((v) => {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n))
      throw new StageProviderError('malformed answer: a score is not a number');
    return Math.min(1, Math.max(0, n / 10));
  });
}

async function endpointScores(
  stage: RemoteStage,
  input: RerankInput,
): Promise<(number | undefined)[]> {
  const answer = await postStage({
    url: `${stage.url}/rerank`,
    body: {
      ...(stage.model === undefined ? {} : { model: stage.model }),
      query: input.query,
      documents: input.candidates.map((c) => docOf(c, RERANK_DOC_CHARS)),
      top_n: input.candidates.length,
      return_documents: false,
    },
    apiKey: stage.apiKey,
    timeoutMs: stage.timeoutMs,
  });
  return parseRerank(answer, input.candidates.length);
}

async function chatScores(stage: RemoteStage, input: RerankInput): Promise<number[]> {
  const docs = input.candidates
    .map((c, i) => `[${i + 1}] ${docOf(c, OLLAMA_DOC_CHARS).replace(/\s+/g, ' ')}`)
    .join('\n');
  const text = await chatOnce(stage, [
    {
      role: 'system',
      content: `Rate how well each numbered document answers the search query, from 0 (unrelated) to 10 (answers it). Answer with JSON only: {"scores": [one number per document, in order]}.`,
    },
    { role: 'user', content: `Query: ${input.query}\n\nDocuments:\n${docs}` },
  ]);
  return parseChatScores(text, input.candidates.length);
}

/** A reranker backed by `stage` (`/rerank` for openai, chat scoring for ollama), else features. */
export function createProviderReranker(
  stage: RemoteStage,
  fallback: Reranker = createFeatureReranker(),
): Reranker {
  const label = stageLabel(stage);
  return {
    name: label,
    async rerank(input): Promise<Reranking> {
      if (input.candidates.length === 0) return { results: [], stage: `${label}: 0 candidates` };
      let scores: (number | undefined)[];
      try {
        scores =
          stage.kind === 'ollama'
            ? await chatScores(stage, input)
            : await endpointScores(stage, input);
      } catch (err) {
        const used = await fallback.rerank(input);
        return { ...used, stage: `${used.stage} (fallback: ${label} ${failureReason(err)})` };
      }
      const missing = scores.filter((s) => s === undefined).length;
      const results: Reranked[] = input.candidates.map((c, i) => {
        const score = scores[i] ?? 0;
        return { id: c.id, score, features: { provider: score } };
      });
      const unscored = missing === 0 ? '' : ` (${missing} unscored, scored 0)`;
      return { results, stage: `${label}: ${input.candidates.length} candidates${unscored}` };
    },
  };
}
