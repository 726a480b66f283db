import { describe, expect, it } from 'vitest';

import { checkEnvelope, summaryLine } from './envelope.js';
import { checkNick, checkRecipient, isAddressedTo, parseChannel } from './names.js';

describe('channel names', () => {
  it.each([
    ['#general', '#general', 'simple', '#general'],
    ['#General', '#general', 'simple', '#general'],
    ['#project.cairn.ci', '#project.cairn.ci', 'project', '#project.cairn.ci'],
    ['#agent.Claude-1', '#agent.claude-1', 'agent', '#agent.claude-1'],
    ['#team.T1', '#team.T1', 'team', 'team:T1'],
  ])('%s → %s (%s) in room %s', (raw, name, kind, roomId) => {
    expect(parseChannel(raw)).toEqual({ name, kind, roomId });
  });

  it.each([
    'general',
    '#',
    '#a b',
    '#project.x',
    '#project.a.b.c',
    '#agent.1bad',
    '#x.y',
    '#team.',
    '#a,b',
    `#${'a'.repeat(100)}`,
  ])('refuses %s', (raw) => expect(parseChannel(raw)).toBeUndefined());
});

describe('nicks and recipients', () => {
  it('checks nicks and reserves principal names', () => {
    expect(checkNick('claude-myrepo-a1b2c3d4')).toBe('claude-myrepo-a1b2c3d4');
    for (const bad of ['', '1abc', 'a b', 'a'.repeat(33), 'Operator', 'ünï'])
      expect(() => checkNick(bad)).toThrow();
  });

  it('matches groups, prefixes and nicks', () => {
    const w = { nick: 'claude-7', type: 'worker' as const };
    expect(isAddressedTo([], w)).toBe(true);
    expect(isAddressedTo(['@all'], w)).toBe(true);
    expect(isAddressedTo(['@workers'], w)).toBe(true);
    expect(isAddressedTo(['@orchestrators'], w)).toBe(false);
    expect(isAddressedTo(['@claude-*'], w)).toBe(true);
    expect(isAddressedTo(['@gpt-*'], w)).toBe(false);
    expect(isAddressedTo(['Claude-7'], w)).toBe(true);
    expect(isAddressedTo(['@claude-7'], w)).toBe(true);
    let field: unknown;
    try {
      checkRecipient('@*', 0);
    } catch (err) {
      field = (err as { field?: string }).field;
    }
    expect(field).toBe('to[0]');
  });
});

describe('envelope checks', () => {
  it('summarises text and typed messages for room readers', () => {
    const text = checkEnvelope({ type: 'text', payload: { text: 'hello' } });
    expect(summaryLine(text.type, text.payload, text.payloadJson)).toBe('hello');
    const typed = checkEnvelope({ type: 'task.create', payload: { title: 'x' } });
    expect(summaryLine(typed.type, typed.payload, typed.payloadJson)).toBe(
      'type=task.create {"title":"x"}',
    );
    const long = checkEnvelope({ type: 'a', payload: { b: 'c'.repeat(1000) } });
    expect(summaryLine(long.type, long.payload, long.payloadJson)).toHaveLength(400);
  });
});
