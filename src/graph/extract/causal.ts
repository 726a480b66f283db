// Causal cue patterns over one sentence: "because", "because of", "due to", "as a result",
// "so that", "decided … since", each giving [effect clause, caused_by, cause clause]. The
// verb forms "caused", "was caused by" and "led to" are subject–verb–object patterns instead.
import { cleanPhrase } from './phrase.js';
import type { RawTriple } from './svo.js';

interface Cue {
  readonly re: RegExp;
  /** Which capture group is the effect; the other is the cause. */
  readonly effect: 1 | 2;
}

const CUES: readonly Cue[] = [
  { re: /^(?:because|due to)\s+(.+?),\s*(.+)$/i, effect: 2 },
  { re: /^(.+?)\s+because\s+of\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)\s+because\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)\s+due\s+to\s+(.+)$/i, effect: 1 },
  { re: /^(.+?)[;,]?\s+(?:and\s+)?as\s+a\s+result,?\s+(.+)$/i, effect: 2 },
  { re: /^(.+?),?\s+so\s+that\s+(.+)$/i, effect: 2 },
  { re: /^(.*\bdecid(?:e|es|ed)\b.+?)\s+since\s+(.+)$/i, effect: 1 },
];

/** The first causal cue's triple in a sentence, or none. */
export function causalTriples(sentence: string): RawTriple[] {
  const text = sentence.replace(/[.!]+$/, '');
  for (const cue of CUES) {
    const m = cue.re.exec(text);
    if (m === null) continue;
    const effect = cleanPhrase(m[cue.effect] ?? '');
    const cause = cleanPhrase(m[cue.effect === 1 ? 2 : 1] ?? '');
    if (effect === '' || cause === '') continue;
    return [{ subject: effect, predicate: 'caused_by', object: cause }];
  }
  return [];
}
