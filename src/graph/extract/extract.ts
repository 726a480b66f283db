// The deterministic fact extractor: sentences, then causal cues and subject–verb–object
// patterns, names cleaned and slugged, each triple validated against the vocabulary before it
// is returned. Questions and conditionals state no fact. Pure and bounded.
import { slugOf } from '../slug.js';
import { causalTriples } from './causal.js';
import { cleanPhrase } from './phrase.js';
import { splitSentences } from './sentences.js';
import { type RawTriple, svoTriples } from './svo.js';
import { type ExtractedFact, extractedFactSchema } from './vocabulary.js';

/** Longer sentences are skipped (tables, run-on lists): patterns over them are guesses. */
export const MAX_SENTENCE_LENGTH = 400;
/** At most this many facts per document. */
export const MAX_FACTS = 500;

/** True when a sentence asks or supposes rather than states. */
function statesNothing(sentence: string): boolean {
  return /\?\s*$/.test(sentence) || /^(?:if|unless|whether|suppose)\b/i.test(sentence);
}

/** The triples of one sentence, causal first, duplicates dropped. */
export function sentenceTriples(sentence: string): RawTriple[] {
  if (sentence.length > MAX_SENTENCE_LENGTH || statesNothing(sentence)) return [];
  const seen = new Set<string>();
  const out: RawTriple[] = [];
  for (const t of [...causalTriples(sentence), ...svoTriples(sentence)]) {
    const key = `${slugOf(t.subject)}|${t.predicate}|${slugOf(t.object)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** Validated facts of a document, numbered in order; a triple failing the schema is dropped. */
export function extractFacts(text: string): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  for (const sentence of splitSentences(text)) {
    for (const t of sentenceTriples(sentence)) {
      if (facts.length >= MAX_FACTS) return facts;
      const subject = cleanPhrase(t.subject);
      const object = cleanPhrase(t.object);
      const parsed = extractedFactSchema.safeParse({
        ordinal: facts.length,
        subject,
        subjectSlug: slugOf(subject),
        predicate: t.predicate,
        object,
        objectSlug: slugOf(object),
        fact: sentence,
      });
      if (parsed.success && parsed.data.subjectSlug !== parsed.data.objectSlug) {
        facts.push(parsed.data);
      }
    }
  }
  return facts;
}
