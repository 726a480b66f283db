// Validation of model-proposed triples: vocabulary, bounded non-empty phrases, evidence that
// occurs in the text shown, distinct ends, duplicates; every refusal is counted as dropped.
import { describe, expect, it } from 'vitest';

import { MAX_NAME_LENGTH, validateModelTriples } from './index.js';

const TEXT =
  'The platform team owns the billing service.\nWe moved the billing\nservice onto Kubernetes.';
const ok = {
  subject: 'The platform team',
  predicate: 'owns',
  object: 'the billing service',
  sentence: 'The platform team owns the billing service.',
};

describe('validateModelTriples', () => {
  it('keeps a valid triple, cleaned, slugged and numbered, its sentence as the fact', () => {
    const broken = {
      subject: 'billing service',
      predicate: 'uses',
      object: 'Kubernetes',
      sentence: 'We moved the billing service onto Kubernetes.',
    };
    const r = validateModelTriples(TEXT, [ok, broken]);
    expect(r.dropped).toBe(0);
    expect(r.facts.map((f) => [f.ordinal, f.subjectSlug, f.predicate, f.objectSlug])).toEqual([
      [0, 'platform-team', 'owns', 'billing-service'],
      [1, 'billing-service', 'uses', 'kubernetes'],
    ]);
    expect(r.facts[0]?.fact).toBe('The platform team owns the billing service.');
  });

  it.each([
    ['a predicate outside the vocabulary', { ...ok, predicate: 'likes' }],
    [
      'an evidence sentence not in the text',
      { ...ok, sentence: 'The platform team owns payroll.' },
    ],
    ['an empty subject', { ...ok, subject: '  ' }],
    ['an over-long object', { ...ok, object: 'x'.repeat(MAX_NAME_LENGTH + 1) }],
    ['the same entity at both ends', { ...ok, object: 'Platform team' }],
    ['a missing field', { subject: 'a', predicate: 'owns', object: 'b' }],
    ['not an object', 'platform team owns billing service'],
    ['a phrase that is only a determiner', { ...ok, subject: 'the' }],
  ])('drops %s and counts it', (_why, bad) => {
    const r = validateModelTriples(TEXT, [bad, ok]);
    expect(r.dropped).toBe(1);
    expect(r.facts).toHaveLength(1);
    expect(r.facts[0]?.ordinal).toBe(0);
  });

  it('drops a duplicate of a kept triple', () => {
    expect(validateModelTriples(TEXT, [ok, { ...ok, subject: 'platform team' }])).toMatchObject({
      dropped: 1,
      facts: [{ subject: 'platform team' }],
    });
  });
});
