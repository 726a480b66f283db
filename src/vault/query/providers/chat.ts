// One chat turn against an OpenAI-compatible `/chat/completions` endpoint or Ollama's
// `/api/chat`, answering the assistant's text; and a defensive reader of JSON inside that text
// (code fences, prose around the object). Used by the expansion and Ollama rerank providers.
import { postStage, StageProviderError } from './http.js';

/** A remote model stage, as configured (CAIRN_VAULT_EXPANSION_*, CAIRN_VAULT_RERANK_*). */
export interface RemoteStage {
  readonly kind: 'openai' | 'ollama';
  /** Base URL without a trailing slash (`…/v1` for OpenAI-compatible servers). */
  readonly url: string;
  /** The model; undefined only for a `/rerank` endpoint that picks its own. */
  readonly model?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** `openai:gpt-4o-mini`: how a stage report names the provider. */
export const stageLabel = (stage: RemoteStage): string =>
  stage.model === undefined ? stage.kind : `${stage.kind}:${stage.model}`;

const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;

/** The assistant's text of a chat answer in either shape, or undefined. */
function contentOf(kind: RemoteStage['kind'], answer: unknown): string | undefined {
  const body = record(answer);
  const message =
    kind === 'ollama'
      ? record(body?.['message'])
      : record(
          record(Array.isArray(body?.['choices']) ? body['choices'][0] : undefined)?.['message'],
        );
  const content = message?.['content'];
  return typeof content === 'string' ? content : undefined;
}

/**
 * Sends one chat turn (temperature 0; Ollama asked for JSON; at most `maxTokens` tokens on
 * OpenAI-compatible servers) and answers the text.
 * @throws StageProviderError on transport failure or an answer without message content.
 */
export async function chatOnce(
  stage: RemoteStage,
  messages: ChatMessage[],
  maxTokens = 400,
): Promise<string> {
  const answer =
    stage.kind === 'ollama'
      ? await postStage({
          url: `${stage.url}/api/chat`,
          body: {
            model: stage.model,
            messages,
            stream: false,
            format: 'json',
            options: { temperature: 0 },
          },
          apiKey: stage.apiKey,
          timeoutMs: stage.timeoutMs,
        })
      : await postStage({
          url: `${stage.url}/chat/completions`,
          body: { model: stage.model, messages, temperature: 0, max_tokens: maxTokens },
          apiKey: stage.apiKey,
          timeoutMs: stage.timeoutMs,
        });
  const content = contentOf(stage.kind, answer);
  if (content === undefined) throw new StageProviderError('malformed answer: no message content');
  return content;
}

/** The JSON value inside a model's text: the whole text, a fenced block, or the outermost {…}/[…]. */
export function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const candidates = [text, fenced ?? ''];
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const a = text.indexOf(open);
    const b = text.lastIndexOf(close);
    if (a >= 0 && b > a) candidates.push(text.slice(a, b + 1));
  }
  for (const c of candidates) {
    try {
      if (c.trim() !== '') return JSON.parse(c) as unknown;
    } catch {
      // the next candidate
    }
  }
  throw new StageProviderError('malformed answer: no JSON in the model output');
}

export { record };
