// Causal cue patterns over one sentence: "because (of)", "due to", "as a result (of)", "so
// that", ", so / therefore / hence", "decided … since", each giving [effect clause, caused_by,
// cause clause]. Verb forms ("caused", "led to", "resulted in", "stems from") are
// subject–verb–object patterns instead.
import { cleanPhrase } from './phrase.js';
import type { RawTriple } from './svo.js';

interface Cue {
  readonly re: RegExp;
  /** Which capture group is the effect; the other is the cause. */
  readonly effect: 1 | 2;
}

const CUES: readonly Cue[] = [
  {
    re: /^(?:because(?:\s+of)?|due\s+to|owing\s+to|as\s+a\s+result\s+of)\s+(.+?),\s*(.+)$/i,
    effect: 2,
  },
  { re: /^(.+?)\s+because\s+of\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)\s+because\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)\s+due\s+to\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)[;,]?\s+(?:and\s+)?as\s+a\s+result,?\s+(.+)$/i, effect: 2 },
  { re: /^(.+?),?\s+so\s+that\s+(.+)$/i, effect: 2 },
  {
    re: /^(.+?)[,;]\s+(?:and\s+)?(?:so|therefore|hence|thus),?\s+(?!far\b|much\b|many\b)(.+)$/i,
    effect: 2,
  },
  { re: /^(.*\bdecid(?:e|es|ed)\b.+?)\s+since\s+(.+)$/i, effect: 1 },
  { re: /^the\s+(?:main\s+)?reason\s+for\s+(.+?)\s+(?:was|is)\s+(?:that\s+)?(.+)$/i, effect: 1 },
];

const MONTH =
  'january|february|march|april|may|june|july|august|september|october|november|december';
const DAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
/** A clause's closing time adjunct ("until January", "last week", "in 2024"): not the event. */
const TIME_TAIL = new RegExp(
  `\\s+(?:(?:until|till|by|in|on|since|before|after)\\s+(?:${MONTH}|${DAY}|\\d{4}|(?:next|last|this)\\s+\\w+)|(?:next|last|this)\\s+(?:week|month|quarter|year|${DAY})|yesterday|today|tomorrow|tonight)$`,
  'i',
);

const clause = (text: string): string => cleanPhrase(cleanPhrase(text).replace(TIME_TAIL, ''));

/** The first causal cue's triple in a sentence, or none. */
export function causalTriples(sentence: string): RawTriple[] {
  const text = sentence.replace(/[.!]+$/, '');
  for (const cue of CUES) {
    const m = cue.re.exec(text);
    if (m === null) continue;
    const effect = clause(m[cue.effect] ?? '');
    const cause = clause(m[cue.effect === 1 ? 2 : 1] ?? '');
    if (effect === '' || cause === '') continue;
    return [{ subject: effect, predicate: 'caused_by', object: cause }];
  }
  return [];
}
