// Validation of triples a language model proposed for a document: never trusted raw. Each must
// name a predicate of the closed vocabulary, two non-empty bounded phrases that differ, and an
// evidence sentence that occurs in the document; the rest are dropped and counted. Pure.
import { z } from 'zod';

import { slugOf } from '../slug.js';
import { MAX_FACTS, MAX_SENTENCE_LENGTH } from './extract.js';
import { cleanPhrase } from './phrase.js';
import {
  type ExtractedFact,
  extractedFactSchema,
  MAX_NAME_LENGTH,
  PREDICATES,
} from './vocabulary.js';

/** One triple as the model must give it. */
export const modelTripleSchema = z.object({
  subject: z.string().trim().min(1).max(MAX_NAME_LENGTH),
  predicate: z.enum(PREDICATES),
  object: z.string().trim().min(1).max(MAX_NAME_LENGTH),
  sentence: z.string().trim().min(1).max(MAX_SENTENCE_LENGTH),
});

export interface ValidatedTriples {
  facts: ExtractedFact[];
  /** Proposed triples refused (bad shape, unknown predicate, evidence not in the text, …). */
  dropped: number;
}

/** Whitespace folded to single spaces: a sentence broken over lines still matches. */
const fold = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** One proposed triple as a fact numbered `ordinal`, or null when it fails any rule. */
function validOne(proposed: unknown, folded: string, ordinal: number): ExtractedFact | null {
  const t = modelTripleSchema.safeParse(proposed);
  if (!t.success) return null;
  const sentence = fold(t.data.sentence);
  if (!folded.includes(sentence)) return null;
  const subject = cleanPhrase(t.data.subject);
  const object = cleanPhrase(t.data.object);
  const fact = extractedFactSchema.safeParse({
    ordinal,
    subject,
    subjectSlug: slugOf(subject),
    predicate: t.data.predicate,
    object,
    objectSlug: slugOf(object),
    fact: sentence,
  });
  if (!fact.success || fact.data.subjectSlug === fact.data.objectSlug) return null;
  return fact.data;
}

/**
 * The valid facts among `proposed` (the model's triples) for `text` (what the model was
 * shown), numbered in order, duplicates and anything past MAX_FACTS dropped and counted.
 */
export function validateModelTriples(text: string, proposed: readonly unknown[]): ValidatedTriples {
  const folded = fold(text);
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const p of proposed) {
    const fact = facts.length < MAX_FACTS ? validOne(p, folded, facts.length) : null;
    const key = fact && `${fact.subjectSlug}|${fact.predicate}|${fact.objectSlug}|${fact.fact}`;
    if (fact === null || key === null || seen.has(key)) {
      dropped += 1;
      continue;
    }
    seen.add(key);
    facts.push(fact);
  }
  return { facts, dropped };
}
