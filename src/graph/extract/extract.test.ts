// The extractor, pattern by pattern: each verb family and causal cue gives its triple, and
// negated, hedged, interrogative and conditional sentences give none.
import { describe, expect, it } from 'vitest';

import { extractFacts, PREDICATES, sentenceTriples, splitSentences } from './index.js';

const triples = (s: string): string[][] =>
  sentenceTriples(s).map((t) => [t.subject, t.predicate, t.object]);

describe('subject–verb–object patterns', () => {
  it.each([
    ['The platform team owns the billing service.', ['platform team', 'owns', 'billing service']],
    ['The index is owned by the data team.', ['data team', 'owns', 'index']],
    ['We adopted Kubernetes in 2023.', ['We', 'adopted', 'Kubernetes']],
    ['The backend switched to Postgres last spring.', ['backend', 'adopted', 'Postgres']],
    ['Login depends heavily on the session cache.', ['Login', 'depends_on', 'session cache']],
    ['The exporter requires Node 20.', ['exporter', 'depends_on', 'Node 20']],
    ['Jenkins was replaced by GitHub Actions in 2022.', ['GitHub Actions', 'replaced', 'Jenkins']],
    ['The team replaced Moment with date-fns.', ['date-fns', 'replaced', 'Moment']],
    ['The board decided to postpone the launch.', ['board', 'decided', 'postpone the launch']],
    ['Priya chose Rust for the agent.', ['Priya', 'decided', 'Rust']],
    ['Sam created the onboarding guide.', ['Sam', 'created', 'onboarding guide']],
    ['The website is built on Astro.', ['website', 'uses', 'Astro']],
    ['The tokenizer is part of the search package.', ['tokenizer', 'part_of', 'search package']],
    ['The release is blocked by the flaky migration.', ['flaky migration', 'blocks', 'release']],
    ['The memory leak caused the nightly crash.', ['nightly crash', 'caused_by', 'memory leak']],
    ['A missing index led to the slow checkout.', ['slow checkout', 'caused_by', 'missing index']],
  ])('%s', (sentence, expected) => {
    expect(triples(sentence)).toEqual([expected]);
  });

  it('splits an object list on "and" and a sentence into two clauses', () => {
    expect(triples('The CLI depends on the store package and the config loader.')).toEqual([
      ['CLI', 'depends_on', 'store package'],
      ['CLI', 'depends_on', 'config loader'],
    ]);
    expect(triples('Ravi created the rules and Ines adopted them.')).toEqual([
      ['Ravi', 'created', 'rules'],
      ['Ines', 'adopted', 'them'],
    ]);
  });

  it('resolves "which" to the previous object', () => {
    expect(triples('The gateway uses Envoy, which depends on a control plane.')).toEqual([
      ['gateway', 'uses', 'Envoy'],
      ['Envoy', 'depends_on', 'control plane'],
    ]);
  });
});

describe('causal cues', () => {
  it.each([
    ['The build failed because the cache was stale.', ['build failed', 'cache was stale']],
    ['The crash happened because of a null pointer.', ['crash happened', 'null pointer']],
    ['Latency rose due to GC pauses.', ['Latency rose', 'GC pauses']],
    ['Because prices rose, we left.', ['we left', 'prices rose']],
    ['The disk filled up; as a result, the db stopped.', ['db stopped', 'disk filled up']],
    ['We batch writes so that fsync is shared.', ['fsync is shared', 'We batch writes']],
  ])('%s', (sentence, [effect, cause]) => {
    expect(triples(sentence)).toContainEqual([effect, 'caused_by', cause]);
  });

  it('"decided … since" gives the decision and its cause', () => {
    expect(triples('We decided to drop Redis since nobody maintained it.')).toEqual([
      ['We decided to drop Redis', 'caused_by', 'nobody maintained it'],
      ['We', 'decided', 'drop Redis'],
    ]);
  });
});

describe('sentences that state no fact', () => {
  it.each([
    'Bob does not own the deploy pipeline anymore.',
    'We might adopt Bazel next year.',
    'Nobody has adopted the new linter yet.',
    'Should we switch to Deno?',
    'The scheduler no longer depends on cron.',
    'The crash was not caused by the new driver.',
    'If the cache is cold, the first query is slow.',
    'We chose not to adopt microservices.',
    'The meeting ran long.',
  ])('%s', (sentence) => {
    expect(triples(sentence)).toEqual([]);
  });
});

describe('extractFacts', () => {
  it('numbers facts across a markdown document, slugs names, skips code', () => {
    const doc = [
      '# Decisions',
      '',
      '- The Data Team owns the Search Index.',
      '```',
      'Alice owns the code block.',
      '```',
      'Checkout requires Redis. The meeting ran long.',
    ].join('\n');
    const facts = extractFacts(doc);
    expect(facts.map((f) => [f.ordinal, f.subjectSlug, f.predicate, f.objectSlug])).toEqual([
      [0, 'data-team', 'owns', 'search-index'],
      [1, 'checkout', 'depends_on', 'redis'],
    ]);
    expect(facts[1]?.fact).toBe('Checkout requires Redis.');
    for (const f of facts) expect(PREDICATES).toContain(f.predicate);
  });

  it('splits sentences after . ! ? before a capital', () => {
    expect(splitSentences('One thing. Two things! Three?\n\nFour')).toEqual([
      'One thing.',
      'Two things!',
      'Three?',
      'Four',
    ]);
  });
});
