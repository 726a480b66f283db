// Noun-phrase and clause clean-up shared by the patterns and the eval: leading determiners and
// possessive pronouns dropped, phrases cut at a preposition, comma or time word. Pure.
import { slugOf } from '../slug.js';

const LEADING = /^(?:(?:the|a|an|our|their|my|your|his|her|its|this|that|these|those)(?:\s+|$))+/i;
/** Words that end a noun phrase (prepositions, subordinators, time words). */
const ENDERS = new Set(
  (
    'in on at for from with without over under into onto by of as to until after before ' +
    'during since because due so while when where which who that than via per about across ' +
    'last next yesterday today tonight tomorrow now anymore yet again here there'
  ).split(' '),
);
const NEGATIONS = /\b(?:not|n't|no longer|never|nobody|nothing|no one|none|neither|nor)\b|n't\b/i;
const MODALS = /\b(?:might|may|could|should|would|will|can|shall|must)\b/i;

/** Drops leading determiners and possessive pronouns and trailing punctuation. */
export function cleanPhrase(text: string): string {
  return text
    .trim()
    .replace(/^[,;:\s]+|[,;:.!?\s]+$/g, '')
    .replace(LEADING, '')
    .trim();
}

/** The phrase's comparison key: cleaned, then slugged. */
export function phraseKey(text: string): string {
  return slugOf(cleanPhrase(text));
}

/** The noun phrase at the start of `text`: up to the first comma, semicolon or ending word. */
export function leadingNounPhrase(text: string): string {
  const head = text.split(/[,;:()]/)[0] ?? '';
  const words = head.trim().split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    if (ENDERS.has(word.toLowerCase())) break;
    kept.push(word);
  }
  return cleanPhrase(kept.join(' '));
}

/** True when the text negates or hedges what follows (not, never, might, …). */
export function negatedOrHedged(text: string): boolean {
  return NEGATIONS.test(text) || MODALS.test(text);
}

/** True when a phrase is a negative quantifier ("nobody", "nothing") rather than an entity. */
export function isNegativeSubject(phrase: string): boolean {
  return /^(?:nobody|nothing|no one|none|noone)$/i.test(phrase.trim());
}
