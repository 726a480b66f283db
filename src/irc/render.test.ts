// Unit tests of how messages look on IRC: human lines, envelopes as JSON + NOTICE, budgets.
import { describe, expect, it } from 'vitest';

import type { Message } from '../backplane/index.js';
import { renderMessage, textBudget } from './render.js';

const message = (type: string, payload: Record<string, unknown>, to: string[] = []): Message => ({
  channel: '#general',
  seq: 1,
  kind: 'message',
  envelope: {
    v: 1,
    type,
    id: '01J00000000000000000000000',
    from: 'ann',
    to,
    ts: '2030-01-01T00:00:00.000Z',
    payload,
  },
});

describe('renderMessage', () => {
  it('shows a plain text as PRIVMSG lines (NOTICE when it came from one)', () => {
    expect(renderMessage(message('text', { text: 'hi\n\nthere' }))).toEqual([
      { command: 'PRIVMSG', text: 'hi' },
      { command: 'PRIVMSG', text: 'there' },
    ]);
    expect(renderMessage(message('text', { text: 'psst', notice: true }))).toEqual([
      { command: 'NOTICE', text: 'psst' },
    ]);
  });

  it('shows other envelopes (and addressed texts) as JSON plus a human NOTICE', () => {
    const m = message('task.create', { title: 'x' }, ['@workers']);
    const [json, human] = renderMessage(m);
    expect(JSON.parse(json?.text ?? '')).toEqual(m.envelope);
    expect(human).toEqual({ command: 'NOTICE', text: 'task.create → @workers: {"title":"x"}' });
    expect(renderMessage(message('text', { text: 'to bob' }, ['bob']))[1]?.text).toBe(
      'text → bob: to bob',
    );
    expect(renderMessage(message('agent.bye', {}))[1]?.text).toBe('agent.bye');
  });

  it('elides long texts and keeps every line within the budget', () => {
    const many = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const rendered = renderMessage(message('text', { text: many }));
    expect(rendered).toHaveLength(21);
    expect(rendered[20]?.text).toBe('… (10 more lines; see get_history)');
    const budget = textBudget('ann!ann@cairn', 'PRIVMSG', '#general');
    for (const line of renderMessage(message('text', { text: '€'.repeat(2000) }))) {
      expect(Buffer.byteLength(line.text)).toBeLessThanOrEqual(budget);
    }
  });
});
