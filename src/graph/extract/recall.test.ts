// The general English forms added for recall: passives with "by", phrasal verbs, progressive
// and perfect tenses, inclusion, waiting and result verbs, clause-level cues, coordinated
// subjects and object relative clauses; and the look-alikes that must still give nothing.
import { describe, expect, it } from 'vitest';

import { sentenceTriples } from './index.js';

const triples = (s: string): string[][] =>
  sentenceTriples(s).map((t) => [t.subject, t.predicate, t.object]);

describe('forms added for recall', () => {
  it.each([
    ['The wiki is maintained by the docs team.', [['docs team', 'owns', 'wiki']]],
    ['Ana manages the release train.', [['Ana', 'owns', 'release train']]],
    ['Jo is in charge of hiring.', [['Jo', 'owns', 'hiring']]],
    ['The linter was adopted by the web team.', [['web team', 'adopted', 'linter']]],
    ['We started using Loki in May.', [['We', 'adopted', 'Loki']]],
    ['The app upgraded to Node 22.', [['app', 'adopted', 'Node 22']]],
    ['We went with SQLite for the cache.', [['We', 'decided', 'SQLite']]],
    ['The board opted for a delay.', [['board', 'decided', 'delay']]],
    ['The parser was written by Kai.', [['Kai', 'created', 'parser']]],
    ['Ines designed the schema.', [['Ines', 'created', 'schema']]],
    ['Search is powered by Tantivy.', [['Search', 'uses', 'Tantivy']]],
    ['The site is hosted on Pages.', [['site', 'uses', 'Pages']]],
    ['The team is still using Jenkins.', [['team', 'uses', 'Jenkins']]],
    ['The CLI depends upon the store.', [['CLI', 'depends_on', 'store']]],
    ['The search page mostly relies on the cache.', [['search page', 'depends_on', 'cache']]],
    ['Vite took over from Webpack.', [['Vite', 'replaced', 'Webpack']]],
    ['Moment was retired in favour of Luxon.', [['Luxon', 'replaced', 'Moment']]],
    ['We swapped Yarn for pnpm.', [['pnpm', 'replaced', 'Yarn']]],
    ['The lexer is a module of the compiler.', [['lexer', 'part_of', 'compiler']]],
    [
      'The kit includes a router and a store.',
      [
        ['router', 'part_of', 'kit'],
        ['store', 'part_of', 'kit'],
      ],
    ],
    ['The outage is blocking the release.', [['outage', 'blocks', 'release']]],
    ['The launch is waiting on legal.', [['legal', 'blocks', 'launch']]],
    ['The typo resulted in an outage.', [['outage', 'caused_by', 'typo']]],
    ['The crash was triggered by a bad flag.', [['crash', 'caused_by', 'bad flag']]],
    ['The churn stems from slow support.', [['churn', 'caused_by', 'slow support']]],
    [
      'As a result of the audit, we rotated the keys.',
      [['we rotated the keys', 'caused_by', 'audit']],
    ],
    ['The disk was full, so the writes failed.', [['writes failed', 'caused_by', 'disk was full']]],
    ['Due to the freeze, the launch waits until March.', [['launch waits', 'caused_by', 'freeze']]],
    ['The cache is used by the search page.', [['search page', 'uses', 'cache']]],
    ['Redis is required by the worker.', [['worker', 'depends_on', 'Redis']]],
    ['The site is built with Astro.', [['site', 'uses', 'Astro']]],
    ['Priya took ownership of the runbook.', [['Priya', 'owns', 'runbook']]],
    ['The reason for the outage was a bad config.', [['outage', 'caused_by', 'bad config']]],
    [
      'Both the CLI and the server use the store.',
      [
        ['CLI', 'uses', 'store'],
        ['server', 'uses', 'store'],
      ],
    ],
    [
      'The SDK, which Tom wrote, depends on zod.',
      [
        ['Tom', 'created', 'SDK'],
        ['SDK', 'depends_on', 'zod'],
      ],
    ],
  ])('%s', (sentence, expected) => {
    expect(triples(sentence)).toEqual(expected);
  });

  it.each([
    'We managed to fix the bug.',
    'The wiki is not maintained by anyone.',
    'The wiki is no longer maintained.',
    'We should have started using Sentry.',
    'We never went with Oracle.',
    'Did the typo result in an outage?',
    'We are still evaluating Temporal.',
    'The tool is used by nobody.',
  ])('%s gives nothing', (sentence) => {
    expect(triples(sentence)).toEqual([]);
  });
});
