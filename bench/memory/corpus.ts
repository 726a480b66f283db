// The memory bench's synthetic corpus: facts and natural-language questions built from the
// vocab.ts word lists by a seeded PRNG, so every run searches the same 100k facts. Topic and
// term choices are Zipf-skewed: a few terms match tens of thousands of facts (long posting
// lists for BM25), most match a few hundred. No I/O.
import type { SaveInput } from '../../src/memory/index.js';
import {
  ACTIONS,
  COMMON,
  CONDITIONS,
  PEOPLE,
  QUESTION_OPENERS,
  SERVICES,
  type Topic,
  TOPICS,
  VERBS,
} from './vocab.js';

export const TEAMS = 20;
export const teamId = (i: number): string => `team-${String(i % TEAMS).padStart(2, '0')}`;

/** mulberry32: a small, fast, seedable PRNG returning [0, 1). */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks from `items` with P(i) ∝ 1 / (i + 1)^s (cumulative weights precomputed). */
function zipf<T>(items: readonly T[], s: number): (rand: () => number) => T {
  const cumulative: number[] = [];
  let total = 0;
  items.forEach((_, i) => cumulative.push((total += 1 / (i + 1) ** s)));
  return (rand) => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo] as T;
  };
}

const uniform =
  <T>(items: readonly T[]) =>
  (rand: () => number): T =>
    items[Math.floor(rand() * items.length)] as T;

const pickTopic = zipf(TOPICS, 0.8);
const termPickers = new Map(TOPICS.map((topic) => [topic, zipf(topic.terms, 1.0)]));
const pickService = zipf(SERVICES, 0.6);
const pickCommon = zipf(COMMON, 0.9);
const pickVerb = uniform(VERBS);
const pickAction = uniform(ACTIONS);
const pickCondition = uniform(CONDITIONS);
const pickPerson = uniform(PEOPLE);
const pickOpener = uniform(QUESTION_OPENERS);

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The word choices one sentence is built from. */
interface Slots {
  topic: Topic;
  term: () => string;
  svc: string;
  rand: () => number;
}

type Template = (s: Slots) => string;

const n = (rand: () => number, max: number): number => 1 + Math.floor(rand() * max);

const SENTENCES: readonly Template[] = [
  ({ svc, term, rand }) =>
    `The ${svc} ${pickVerb(rand)} ${pickCondition(rand)} because the ${term()} ${pickCommon(rand)} is wrong; ${cap(pickPerson(rand))} set ${term()} to ${n(rand, 500)} as a workaround.`,
  ({ svc, term, rand }) =>
    `We decided to ${pickAction(rand)} the ${term()} for ${svc} ${pickCondition(rand)}, since the ${pickCommon(rand)} ${pickVerb(rand)}.`,
  ({ svc, term, rand }) =>
    `${cap(pickPerson(rand))} owns the ${term()} ${pickCommon(rand)} for ${svc}; ask before you ${pickAction(rand)} it.`,
  ({ topic, term, rand }) =>
    `Do not ${pickAction(rand)} ${term()} in ${topic.name} ${pickCommon(rand)}s: it ${pickVerb(rand)} the ${term()} ${pickCondition(rand)}.`,
  ({ svc, term, rand }) =>
    `The ${term()} ${pickCommon(rand)} lives in config/${svc}/${term()}.yaml; the default is ${n(rand, 900)} and ${svc} reads it on start.`,
  ({ svc, term, rand }) =>
    `When ${svc} ${pickVerb(rand)}, check the ${term()} ${pickCommon(rand)} first, then the ${term()} ${pickCommon(rand)}.`,
  ({ topic, term, rand }) =>
    `Our convention: every ${term()} gets a ${term()} and a ${pickCommon(rand)}, reviewed by the ${topic.name} owners.`,
  ({ svc, term, rand }) =>
    `Since release ${n(rand, 9)}.${n(rand, 30)}, ${svc} uses ${term()} instead of ${term()} for the ${pickCommon(rand)}.`,
  ({ term, rand }) =>
    `Ticket ${n(rand, 9999)}: the ${term()} ${pickCommon(rand)} ${pickVerb(rand)} roughly every ${pickCommon(rand)}; ${cap(pickPerson(rand))} is tracking it.`,
  ({ svc, term, rand }) =>
    `Heads up: ${svc} ${pickVerb(rand)} if ${term()} is missing, so keep a ${term()} ${pickCommon(rand)} in the ${pickCommon(rand)}.`,
  ({ term, rand }) =>
    `${cap(pickPerson(rand))} measured ${n(rand, 90)}% fewer ${term()} errors after we ${pickAction(rand)} the ${term()}.`,
  ({ svc, term, rand }) =>
    `Migrating ${svc} off ${term()} is blocked on the ${term()} ${pickCommon(rand)}; target is Q${n(rand, 4)}.`,
  ({ topic, term, rand }) =>
    `For ${topic.name} work, prefer ${term()} over ${term()}; the old ${pickCommon(rand)} ${pickVerb(rand)} ${pickCondition(rand)}.`,
  ({ svc, term, rand }) =>
    `Runbook step ${n(rand, 12)} for ${svc}: ${pickAction(rand)} ${term()}, wait ${n(rand, 60)} minutes, then verify the ${term()}.`,
  ({ svc, term, rand }) =>
    `Customers on the ${term()} plan saw ${svc} ${pickVerb(rand)} ${pickCondition(rand)}; support tags these as ${term()}-${n(rand, 99)}.`,
  ({ term, rand }) =>
    `The ${term()} limit is ${n(rand, 64)} per ${pickCommon(rand)}; raising it needs sign-off from ${cap(pickPerson(rand))}.`,
  ({ svc, term, rand }) =>
    `Known issue: ${term()} and ${term()} disagree in ${svc}, which ${pickVerb(rand)} the ${pickCommon(rand)}.`,
  ({ topic, term, rand }) =>
    `Postmortem ${n(rand, 400)} (${topic.name}): root cause was a stale ${term()}; follow-up is to ${pickAction(rand)} the ${term()}.`,
];

const TITLES: readonly Template[] = [
  ({ svc, term, rand }) => `${cap(svc)} ${term()} ${pickCommon(rand)}`,
  ({ term, rand }) => `${cap(term())} ${term()} ${pickCondition(rand)}`,
  ({ svc, term }) => `How ${svc} handles ${term()}`,
  ({ topic, term, rand }) => `${cap(topic.name)}: ${pickAction(rand)} the ${term()}`,
  ({ svc, term, rand }) => `${cap(term())} ${pickVerb(rand)} in ${svc}`,
  ({ term, rand }) => `${cap(pickCommon(rand))} for ${term()} and ${term()}`,
];

function slots(rand: () => number, topic: Topic): Slots {
  const pickTerm = termPickers.get(topic) ?? uniform(topic.terms);
  return { topic, term: () => pickTerm(rand), svc: pickService(rand), rand };
}

/** One fact's save input (scope included). */
export type Fact = SaveInput & { title: string };

function scopeFor(rand: () => number): SaveInput['scope'] {
  const roll = rand();
  const team = teamId(Math.floor(rand() * TEAMS));
  if (roll < 0.15) return {};
  if (roll < 0.95) return { teamId: team };
  return { teamId: team, agentId: `agent-${Math.floor(rand() * 5)}` };
}

/** One fact: a title, two to four sentences (sometimes one from a second topic), tags. */
function makeFact(rand: () => number): Fact {
  const topic = pickTopic(rand);
  const main = slots(rand, topic);
  const sentences: string[] = [];
  const count = 2 + Math.floor(rand() * 3);
  for (let i = 0; i < count; i++) {
    const s = i === count - 1 && rand() < 0.3 ? slots(rand, pickTopic(rand)) : main;
    sentences.push(uniform(SENTENCES)(rand)(s));
  }
  const tags = [topic.name, main.svc, ...(rand() < 0.4 ? [main.term()] : [])];
  return {
    title: uniform(TITLES)(rand)(main),
    content: sentences.join(' '),
    tags,
    scope: scopeFor(rand),
  };
}

/** `count` distinct facts (distinct content, so none is deduplicated on save). */
export function generateFacts(count: number, seed: number): Fact[] {
  const rand = createRng(seed);
  const seen = new Set<string>();
  const out: Fact[] = [];
  for (let tries = 0; out.length < count && tries < count * 2; tries++) {
    const fact = makeFact(rand);
    if (seen.has(fact.content)) continue;
    seen.add(fact.content);
    out.push(fact);
  }
  if (out.length < count) throw new Error(`corpus: only ${out.length} distinct facts`);
  return out;
}

/** A search as an agent would ask it: a natural question with several content words. */
export interface Query {
  query: string;
  teamId: string;
}

function makeQuestion(rand: () => number): string {
  const s = slots(rand, pickTopic(rand));
  const forms: readonly Template[] = [
    ({ svc, term }) => `${pickOpener(rand)} ${pickAction(rand)} the ${term()} ${term()} in ${svc}?`,
    ({ svc, term }) => `${pickOpener(rand)} the ${svc} ${term()} ${pickCondition(rand)}?`,
    ({ term }) => `${pickOpener(rand)} ${term()} ${pickCommon(rand)} ${term()}`,
    ({ svc, term }) =>
      `${pickOpener(rand)} ${svc} ${pickVerb(rand)} with ${term()} ${pickCondition(rand)}?`,
  ];
  return cap(uniform(forms)(rand)(s));
}

/** `count` distinct questions, each scoped to one team (rotating). */
export function generateQueries(count: number, seed: number): Query[] {
  const rand = createRng(seed);
  const seen = new Set<string>();
  const out: Query[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const query = makeQuestion(rand);
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ query, teamId: teamId(out.length) });
  }
  return out;
}
