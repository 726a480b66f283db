// Fact extraction by a chat model (OpenAI-compatible or Ollama): one call per document (its
// first MAX_EXTRACTION_CHARS characters) asking for triples over the closed predicate
// vocabulary as JSON; every triple is validated (src/graph/extract) and the invalid ones are
// dropped and counted. Text past the bound keeps its deterministic facts. Runs only from the
// background extraction backlog, never inside a write transaction or a tool call.
import {
  type ExtractedFact,
  extractFacts,
  PREDICATES,
  validateModelTriples,
} from '../../../graph/extract/index.js';
import { chatOnce, jsonIn, record, type RemoteStage, stageLabel } from './chat.js';
import { StageProviderError } from './http.js';

/** The most characters of one document the model is shown. */
export const MAX_EXTRACTION_CHARS = 8000;
/** The answer's token budget (a document's triples, each with its sentence). */
export const EXTRACTION_MAX_TOKENS = 2000;

export interface ModelExtraction {
  facts: ExtractedFact[];
  /** Triples the model proposed that failed validation. */
  dropped: number;
}

/** What the extraction backlog calls: `name` is recorded beside the facts it wrote. */
export interface DocumentFactExtractor {
  readonly name: string;
  /** @throws StageProviderError (timeout, HTTP error, no JSON, every triple invalid). */
  extract(text: string): Promise<ModelExtraction>;
}

const SYSTEM = `You extract facts from a markdown note as subject–predicate–object triples. Use only these predicates: ${PREDICATES.join(', ')}. Directions: [owner, owns, thing]; [whole's part, part_of, whole]; [new, replaced, old]; [effect, caused_by, cause]; [blocker, blocks, blocked]; [chooser, decided, choice]; [adopter, adopted, thing]; [user, uses, tool]; [dependent, depends_on, dependency]; [maker, created, thing]. Subjects and objects are short noun phrases (or clauses for caused_by) copied from the text. Skip negated, hedged, hypothetical and interrogative statements. For each triple, "sentence" is the sentence it comes from, copied exactly. Answer with JSON only: {"triples": [{"subject": "...", "predicate": "...", "object": "...", "sentence": "..."}]}.`;

/** The proposed triples of an answer: `{"triples": […]}` or a bare array. */
export function proposedTriples(answer: string): unknown[] {
  const value = jsonIn(answer);
  const list = Array.isArray(value) ? value : record(value)?.['triples'];
  if (!Array.isArray(list)) throw new StageProviderError('malformed answer: no triples array');
  return list as unknown[];
}

/** The shown part of `text`, cut at the last sentence end or line break within the bound. */
function shownPart(text: string): string {
  if (text.length <= MAX_EXTRACTION_CHARS) return text;
  const head = text.slice(0, MAX_EXTRACTION_CHARS);
  const cut = Math.max(head.lastIndexOf('\n'), head.lastIndexOf('. '));
  return cut > 0 ? head.slice(0, cut + 1) : head;
}

/** The model's valid facts, then the deterministic facts of sentences it was not shown. */
export function mergeFacts(
  shown: string,
  full: string,
  model: readonly ExtractedFact[],
): ExtractedFact[] {
  const folded = shown.replace(/\s+/g, ' ');
  const rest = full === shown ? [] : extractFacts(full).filter((f) => !folded.includes(f.fact));
  return [...model, ...rest].map((f, ordinal) => ({ ...f, ordinal }));
}

/** An extractor asking `stage`'s chat model for a document's triples. */
export function createChatFactExtractor(stage: RemoteStage): DocumentFactExtractor {
  return {
    name: stageLabel(stage),
    async extract(text) {
      const shown = shownPart(text);
      const answer = await chatOnce(
        stage,
        [
          { role: 'system', content: SYSTEM },
          { role: 'user', content: shown },
        ],
        EXTRACTION_MAX_TOKENS,
      );
      const proposed = proposedTriples(answer);
      const { facts, dropped } = validateModelTriples(shown, proposed);
      if (facts.length === 0 && dropped > 0)
        throw new StageProviderError(`all ${dropped} proposed triples failed validation`);
      return { facts: mergeFacts(shown, text, facts), dropped };
    },
  };
}
