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
const ADV = '(?:\\s+(?:\\w+ly|still|also|now|already|just))?';

function p(source: string, predicate: Predicate, inverted = false, clauseObject = false) {
  return { verb: new RegExp(`\\b${source}\\b`, 'gi'), predicate, inverted, clauseObject };
}

/** Past participles of making something ("was written by"); active forms are below. */
const MADE = 'created|written|built|designed|developed|implemented|authored|launched|introduced';

/** The patterns, tried in this order; a later pattern never reuses an earlier match's words. */
export const VERB_PATTERNS: readonly VerbPattern[] = [
  p(`${BE}${ADV}\\s+(?:caused|triggered)\\s+by`, 'caused_by'),
  p(`${BE}${ADV}\\s+(?:owned|maintained|managed|run|operated)\\s+by`, 'owns', true),
  p(`${BE}${ADV}\\s+adopted\\s+by`, 'adopted', true),
  p(`${BE}${ADV}\\s+(?:chosen|selected|picked)\\s+by`, 'decided', true),
  p(`${BE}${ADV}\\s+(?:${MADE})\\s+by`, 'created', true),
  p(`${BE}${ADV}\\s+(?:replaced|superseded)\\s+by`, 'replaced', true),
  p(`${BE}${ADV}\\s+(?:retired|deprecated|dropped)\\s+in\\s+favou?r\\s+of`, 'replaced', true),
  p(`${BE}${ADV}\\s+blocked\\s+by`, 'blocks', true),
  p(`${BE}${ADV}\\s+(?:waiting|blocked)\\s+on`, 'blocks', true),
  p(`${BE}${ADV}\\s+blocking`, 'blocks'),
  p(`${BE}${ADV}\\s+(?:built|based|hosted|deployed)\\s+on`, 'uses'),
  p(`${BE}${ADV}\\s+(?:written|implemented)\\s+in`, 'uses'),
  p(`${BE}${ADV}\\s+(?:powered|backed)\\s+by`, 'uses'),
  p(`${BE}${ADV}\\s+used\\s+by`, 'uses', true),
  p(`${BE}${ADV}\\s+(?:required|needed)\\s+by`, 'depends_on', true),
  p(`${BE}${ADV}\\s+(?:built|made)\\s+with`, 'uses'),
  p(`${BE}${ADV}\\s+using`, 'uses'),
  p(`${BE}${ADV}\\s+(?:dependent|reliant)\\s+(?:on|upon)`, 'depends_on'),
  p(`${BE}\\s+(?:a\\s+|an\\s+)?(?:part|component|module|subsystem|member|piece)\\s+of`, 'part_of'),
  p(`belong(?:s|ed)?\\s+to`, 'part_of'),
  p(`(?:includes|included|contains|contained|comprises|consists\\s+of)`, 'part_of', true),
  p(`${BE}\\s+(?:responsible\\s+for|in\\s+charge\\s+of|the\\s+owner\\s+of)`, 'owns'),
  p(`(?:took|takes|take)\\s+ownership\\s+of`, 'owns'),
  p(`(?:led|leads|lead)\\s+to`, 'caused_by', true),
  p(`result(?:s|ed)?\\s+in`, 'caused_by', true),
  p(`(?:result(?:s|ed)?|stem(?:s|med)?)\\s+from`, 'caused_by'),
  p(`(?:caus(?:es|ed)|trigger(?:s|ed)?)`, 'caused_by', true),
  p(`decid(?:es|ed|e)\\s+to`, 'decided', false, true),
  p(`agree(?:s|d)?\\s+to`, 'decided', false, true),
  p(`(?:decid(?:es|ed|e)|settle(?:s|d)?)\\s+on`, 'decided'),
  p(`(?:went|goes|go)\\s+with`, 'decided'),
  p(`opt(?:s|ed)?\\s+for`, 'decided'),
  p(`(?:chose|chooses|choose|picked|picks|selected|selects)`, 'decided'),
  p(`(?:start(?:s|ed)?|beg(?:in|ins|an))\\s+using`, 'adopted'),
  p(`(?:switch(?:es|ed)?|migrat(?:es|ed|e)|mov(?:es|ed|e)|upgrad(?:es|ed|e))\\s+to`, 'adopted'),
  p(`adopt(?:s|ed)?`, 'adopted'),
  p(`depend(?:s|ed)?${ADV}\\s+(?:on|upon)`, 'depends_on'),
  p(`rel(?:y|ies|ied)${ADV}\\s+(?:on|upon)`, 'depends_on'),
  p(`(?:requires|required|require|needs|needed)`, 'depends_on'),
  p(`(?:took|takes|take)\\s+over\\s+from`, 'replaced'),
  p(`(?:swap(?:s|ped)?)`, 'replaced'),
  p(`(?:replac(?:es|ed|e)|supersed(?:es|ed|e))`, 'replaced'),
  p(`(?:own|owns|owned|maintains|maintained|maintain|manages|managed(?!\\s+to\\b)|manage)`, 'owns'),
  p(`(?:run|runs|ran)\\s+on`, 'uses'),
  p(`(?:uses|used|use|leverag(?:es|ed|e)|utili[sz](?:es|ed|e))`, 'uses'),
  p(
    `(?:created|creates|create|built|builds|wrote|writes|launched|launches|introduced|introduces|developed|develops|designed|implemented|implements|authored)`,
    'created',
  ),
  p(`(?:blocks|blocked|block|holds\\s+up|held\\s+up|hold\\s+up)`, 'blocks'),
];
