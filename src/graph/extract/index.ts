// The deterministic triple extractor: vault documents in, facts over a closed predicate
// vocabulary out (sentence split, causal cues, subject–verb–object patterns, zod-validated).
export { extractFacts, MAX_FACTS, MAX_SENTENCE_LENGTH, sentenceTriples } from './extract.js';
export { modelTripleSchema, validateModelTriples, type ValidatedTriples } from './model.js';
export { phraseKey } from './phrase.js';
export { splitSentences } from './sentences.js';
export {
  type ExtractedFact,
  extractedFactSchema,
  MAX_NAME_LENGTH,
  type Predicate,
  PREDICATES,
} from './vocabulary.js';
