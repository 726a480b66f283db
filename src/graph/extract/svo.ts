// Subject–verb–object extraction over one sentence: find the verb phrases of VERB_PATTERNS,
// then the noun phrase before each (its subject) and the phrases after it (its objects, split
// on "and"). A negated or hedged verb ("does not use", "might adopt") yields nothing.
import { type VerbPattern, VERB_PATTERNS } from './patterns.js';
import { cleanPhrase, isNegativeSubject, leadingNounPhrase, negatedOrHedged } from './phrase.js';
import type { Predicate } from './vocabulary.js';

export interface RawTriple {
  subject: string;
  predicate: Predicate;
  object: string;
}

interface VerbMatch {
  start: number;
  end: number;
  text: string;
  pattern: VerbPattern;
}

const LEADING_CONJUNCTION = /^(?:and|but|so|then|also|while)\s+/i;
const RELATIVE = /^(?:which|that|who)$/i;
const DETERMINER = /\b(?:the|a|an|our|their|my|your|his|her|its)\s/i;
const AUX_TAIL =
  /(?:\s+(?:has|have|had|does|do|did|is|are|was|were|also|already|now|just|finally|then|still|mostly|largely|mainly|primarily|heavily|partly|fully|currently|usually|originally|initially|officially|recently))+$/i;

/** The verb phrases of a sentence, left to right, no two sharing a character. */
export function findVerbs(sentence: string): VerbMatch[] {
  const taken: VerbMatch[] = [];
  for (const pattern of VERB_PATTERNS) {
    for (const m of sentence.matchAll(pattern.verb)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some((t) => start < t.end && end > t.start)) continue;
      taken.push({ start, end, text: m[0], pattern });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

/** The subject phrase in the text before a verb, and where in that text it starts. */
function subjectOf(region: string): { phrase: string; offset: number } | null {
  const and = /^(.*)\s(?:and|but)\s/i.exec(region)?.[1]?.length;
  const cut = Math.max(region.lastIndexOf(','), region.lastIndexOf(';'), and ?? -1);
  let offset = cut + 1;
  let tail = region.slice(offset);
  const lead = /^\s*/.exec(tail)?.[0].length ?? 0;
  offset += lead;
  tail = tail.slice(lead).replace(LEADING_CONJUNCTION, '');
  if (negatedOrHedged(tail)) return null;
  tail = tail.trimEnd().replace(AUX_TAIL, '').trim();
  const first = tail.split(/\s+/)[0] ?? '';
  if (/^(?:since|in|on|at|after|before|during|by|eventually|finally|then)$/i.test(first)) {
    const det = DETERMINER.exec(tail.slice(first.length));
    tail = det === null ? '' : tail.slice(first.length + det.index);
  }
  return { phrase: leadingNounPhrase(tail) || cleanPhrase(tail), offset };
}

/** The object phrases after a verb (several when joined by "and"). */
function objectsOf(region: string, clause: boolean): string[] {
  if (/^\s*(?:not|never)\b/i.test(region)) return [];
  if (clause) return [leadingNounPhrase(region)].filter((o) => o.length > 0);
  const head = region.split(/[,;:()]/)[0] ?? '';
  return head
    .split(/\s+(?:and|or|&)\s+/i)
    .map((part) => leadingNounPhrase(part))
    .filter((o) => o.length > 0 && !isNegativeSubject(o));
}

/** "X replaced Y with Z", "X swapped Y for Z": Z replaced Y. Null without the joining word. */
function replacedWith(region: string, swap: boolean): { replaced: string; by: string } | null {
  const joiner = swap ? /^(.*?)\s+(?:with|for)\s+(.*)$/i : /^(.*?)\s+with\s+(.*)$/i;
  const m = joiner.exec(region.split(/[,;]/)[0] ?? '');
  if (m === null) return null;
  return { replaced: leadingNounPhrase(m[1] ?? ''), by: leadingNounPhrase(m[2] ?? '') };
}

/** Triples from one verb match, given its subject and the text up to the next subject. */
function triplesOf(match: VerbMatch, subject: string, objectRegion: string): RawTriple[] {
  const { predicate, inverted, clauseObject } = match.pattern;
  if (predicate === 'replaced' && !inverted) {
    const w = replacedWith(objectRegion, /^swap/i.test(match.text));
    if (w !== null) return [{ subject: w.by, predicate, object: w.replaced }];
  }
  return objectsOf(objectRegion, clauseObject === true).map((object) =>
    inverted ? { subject: object, predicate, object: subject } : { subject, predicate, object },
  );
}

const COORDINATED =
  /^\s*(?:both\s+)?((?:the|a|an|our|their|its)\s+[^,;]+?)\s+and\s+((?:the|a|an|our|their|its)\s+[^,;]+?)\s*$/i;

/**
 * "Both the CLI and the server depend on …": two subjects, each with a determiner, before the
 * sentence's first verb (where "and" cannot join two clauses). Empty for anything else.
 */
function coordinatedSubjects(region: string): string[] {
  const m = COORDINATED.exec(region);
  if (m === null || negatedOrHedged(region)) return [];
  const both = [leadingNounPhrase(m[1] ?? ''), leadingNounPhrase(m[2] ?? '')];
  return both.every((p) => p !== '') ? both : [];
}

const OBJECT_RELATIVE = /(^|,)([^,]+?),\s*(?:which|that)\s+([^,]+?)\s*,/gi;

/**
 * "The SDK, which Tom wrote, …": a relative clause ending in its verb has the noun before it
 * as its object ("Tom wrote the SDK").
 */
function relativeTriples(sentence: string): RawTriple[] {
  const out: RawTriple[] = [];
  for (const m of sentence.matchAll(OBJECT_RELATIVE)) {
    const inner = m[3] ?? '';
    const last = findVerbs(inner).at(-1);
    const antecedent = leadingNounPhrase(subjectOf(m[2] ?? '')?.phrase ?? '');
    if (last === undefined || last.end !== inner.length || antecedent === '') continue;
    out.push(...svoTriples(`${inner} ${antecedent}`));
  }
  return out;
}

/** Every subject–verb–object triple of one sentence (negated and hedged verbs skipped). */
export function svoTriples(sentence: string): RawTriple[] {
  return [...relativeTriples(sentence), ...clauseTriples(sentence)];
}

function clauseTriples(sentence: string): RawTriple[] {
  const text = sentence.replace(/,\s*(?:which|who)\s[^,]*,/gi, ' ');
  const verbs = findVerbs(text);
  const subjects = verbs.map((v, i) => {
    const from = i === 0 ? 0 : (verbs[i - 1]?.end ?? 0);
    const found = subjectOf(text.slice(from, v.start));
    return found === null ? null : { phrase: found.phrase, start: from + found.offset };
  });
  const out: RawTriple[] = [];
  let previousObject = '';
  verbs.forEach((verb, i) => {
    const found = subjects[i];
    if (found === null || found === undefined) return;
    const subject = RELATIVE.test(found.phrase) ? previousObject : found.phrase;
    if (subject === '' || isNegativeSubject(subject)) return;
    const next = subjects[i + 1];
    const end = next?.start ?? verbs[i + 1]?.start ?? text.length;
    const region = text.slice(verb.end, Math.max(verb.end, end));
    const firsts = i === 0 ? coordinatedSubjects(text.slice(0, verb.start)) : [];
    const triples = (firsts.length > 0 ? firsts : [subject]).flatMap((who) =>
      triplesOf(verb, who, region),
    );
    out.push(...triples);
    const last = triples[triples.length - 1];
    if (last !== undefined) previousObject = verb.pattern.inverted ? last.subject : last.object;
  });
  return out;
}
