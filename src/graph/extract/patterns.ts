// The subject–verb–object patterns: each verb form (a regular expression over one sentence) and
// the predicate it maps onto, with whether the grammatical subject is the triple's object
// (passives, "led to", "caused"). Order matters: longer forms first, so "is built on" wins over
// "built" and "was replaced by" over "replaced".
import type { Predicate } from './vocabulary.js';

export interface VerbPattern {
  /** Matches the verb phrase alone; the extractor finds subject and object around it. */
  readonly verb: RegExp;
  readonly predicate: Predicate;
  /** True when the triple reads object → subject (passive voice, effect-after-cause verbs). */
  readonly inverted: boolean;
  /** True when the object is a verb phrase ("decided to split the monolith"). */
  readonly clauseObject?: boolean;
}

const BE = '(?:is|are|was|were|has been|have been|had been)';
const ADV = '(?:\\s+\\w+ly)?';

function p(source: string, predicate: Predicate, inverted = false, clauseObject = false) {
  return { verb: new RegExp(`\\b${source}\\b`, 'gi'), predicate, inverted, clauseObject };
}

/** The patterns, tried in this order; a later pattern never reuses an earlier match's words. */
export const VERB_PATTERNS: readonly VerbPattern[] = [
  p(`${BE}${ADV}\\s+caused\\s+by`, 'caused_by'),
  p(`${BE}${ADV}\\s+owned\\s+by`, 'owns', true),
  p(`${BE}${ADV}\\s+replaced\\s+by`, 'replaced', true),
  p(`${BE}${ADV}\\s+superseded\\s+by`, 'replaced', true),
  p(`${BE}${ADV}\\s+blocked\\s+by`, 'blocks', true),
  p(`${BE}${ADV}\\s+(?:built|based)\\s+on`, 'uses'),
  p(`${BE}${ADV}\\s+written\\s+in`, 'uses'),
  p(`${BE}\\s+(?:a\\s+)?(?:part|component)\\s+of`, 'part_of'),
  p(`belong(?:s|ed)?\\s+to`, 'part_of'),
  p(`${BE}\\s+responsible\\s+for`, 'owns'),
  p(`(?:led|leads|lead)\\s+to`, 'caused_by', true),
  p(`caus(?:es|ed)`, 'caused_by', true),
  p(`decid(?:es|ed|e)\\s+to`, 'decided', false, true),
  p(`agree(?:s|d)?\\s+to`, 'decided', false, true),
  p(`(?:decid(?:es|ed|e)|settle(?:s|d)?)\\s+on`, 'decided'),
  p(`(?:chose|chooses|choose|picked|picks)`, 'decided'),
  p(`(?:switch(?:es|ed)?|migrat(?:es|ed|e)|mov(?:es|ed|e))\\s+to`, 'adopted'),
  p(`adopt(?:s|ed)?`, 'adopted'),
  p(`depend(?:s|ed)?${ADV}\\s+on`, 'depends_on'),
  p(`rel(?:y|ies|ied)${ADV}\\s+on`, 'depends_on'),
  p(`(?:requires|required|require|needs|needed)`, 'depends_on'),
  p(`(?:replac(?:es|ed|e)|supersed(?:es|ed|e))`, 'replaced'),
  p(`(?:own|owns|owned)`, 'owns'),
  p(`(?:run|runs|ran)\\s+on`, 'uses'),
  p(`(?:uses|used|use)`, 'uses'),
  p(
    `(?:created|creates|create|built|builds|wrote|writes|launched|launches|introduced|introduces)`,
    'created',
  ),
  p(`(?:blocks|blocked|block)`, 'blocks'),
];
