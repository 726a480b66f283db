// Parsing a vault document: frontmatter, titles, content types, dates and the fragments
// (headings, lists, code fences with headings inside them, paragraphs, the whole document).
import { describe, expect, it } from 'vitest';

import { contentTypeOf } from './content-type.js';
import { splitFragments } from './fragments.js';
import { parseMarkdown } from './markdown.js';

describe('frontmatter, title and type', () => {
  it('reads YAML frontmatter: title, type, tags and date', () => {
    const doc = parseMarkdown(
      '---\ntitle: Choosing SQLite\ntype: Decision\ntags: [db, store]\ndate: 2026-03-01\n---\n# Other heading\nbody\n',
      'notes/x.md',
    );
    expect(doc.frontmatter).toEqual({
      title: 'Choosing SQLite',
      type: 'Decision',
      tags: ['db', 'store'],
      date: '2026-03-01',
    });
    expect(doc.title).toBe('Choosing SQLite');
    expect(doc.contentType).toBe('decision');
    expect(doc.authoredAt).toBe(Date.parse('2026-03-01'));
    expect(doc.frontmatterError).toBe(false);
  });

  it('reads confidence and quality in [0, 1] from frontmatter, else null', () => {
    const doc = parseMarkdown('---\nconfidence: 0.9\nquality: "0.25"\n---\nbody\n', 'a.md');
    expect([doc.confidence, doc.quality]).toEqual([0.9, 0.25]);
    const alias = parseMarkdown('---\nquality_score: 1\n---\nbody\n', 'a.md');
    expect([alias.confidence, alias.quality]).toEqual([null, 1]);
    for (const bad of ['1.5', '-0.1', 'high', '[0.5]', "''"]) {
      const d = parseMarkdown(`---\nconfidence: ${bad}\nquality: ${bad}\n---\nbody\n`, 'a.md');
      expect([d.confidence, d.quality], bad).toEqual([null, null]);
    }
    expect(parseMarkdown('# plain\n', 'a.md').confidence).toBeNull();
  });

  it('falls back to the first heading outside code, then the file name', () => {
    expect(parseMarkdown('```\n# not a title\n```\n\n## Real title\ntext', 'a.md').title).toBe(
      'Real title',
    );
    expect(parseMarkdown('just text', 'dir/my-note.md').title).toBe('my-note');
    expect(parseMarkdown('---\ntitle: ""\n---\n# H\n', 'a.md').title).toBe('H');
  });

  it('a malformed or non-mapping frontmatter gives {} and flags it, never throws', () => {
    const bad = parseMarkdown('---\n: : [\n---\nbody', 'a.md');
    expect(bad.frontmatter).toEqual({});
    expect(bad.frontmatterError).toBe(true);
    expect(parseMarkdown('---\n- a\n- b\n---\nbody', 'a.md').frontmatterError).toBe(true);
    // An unclosed block is body text.
    const open = parseMarkdown('---\ntitle: x\nno close', 'a.md');
    expect(open.frontmatter).toEqual({});
    expect(open.fragments.at(-1)?.text).toContain('title: x');
  });

  it('infers the type from the path when frontmatter has none (or an unknown one)', () => {
    expect(contentTypeOf(undefined, 'handoffs/2026-01-02.md')).toBe('handoff');
    expect(contentTypeOf(undefined, 'project/decisions/adr-1.md')).toBe('decision');
    expect(contentTypeOf(undefined, 'research/x.md')).toBe('research');
    expect(contentTypeOf(undefined, 'observations/o.md')).toBe('observation');
    expect(contentTypeOf('meeting', 'misc/x.md')).toBe('note');
    expect(contentTypeOf('preference', 'handoffs/x.md')).toBe('preference');
    expect(contentTypeOf(undefined, 'handoffs.md')).toBe('note');
  });

  it('counts lines and words of the whole file', () => {
    const doc = parseMarkdown('---\na: 1\n---\none two\nthree', 'a.md');
    expect(doc.lines).toBe(5);
    expect(doc.words).toBe(7);
  });
});

describe('fragments', () => {
  const text = [
    'Intro line.', // 1
    '', // 2
    '# Setup', // 3
    'Install it.', // 4
    'Then run it.', // 5
    '', // 6
    '- first', // 7
    '  continued', // 8
    '- second', // 9
    '', // 10
    '```ts', // 11
    '# not a heading', // 12
    'const x = 1;', // 13
    '```', // 14
    'After code.', // 15
    '## Deeper', // 16
    'deep text', // 17
    '# Next', // 18
  ].join('\n');

  it('splits by heading, list and code block, with heading paths and file lines', () => {
    const frags = splitFragments(text);
    expect(frags.map((f) => [f.kind, f.headingPath, f.startLine, f.endLine])).toEqual([
      ['paragraph', '', 1, 1],
      ['heading', 'Setup', 3, 5],
      ['list', 'Setup', 7, 9],
      ['code', 'Setup', 11, 14],
      ['paragraph', 'Setup', 15, 15],
      ['heading', 'Setup > Deeper', 16, 17],
      ['heading', 'Next', 18, 18],
      ['whole', '', 1, 18],
    ]);
    expect(frags.map((f) => f.ordinal)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(frags[3]?.text).toBe('```ts\n# not a heading\nconst x = 1;\n```');
    expect(frags.filter((f) => f.kind === 'whole')).toHaveLength(1);
  });

  it('numbers lines from the file, after the frontmatter', () => {
    const doc = parseMarkdown('---\ntitle: t\n---\n# A\nbody', 'a.md');
    expect(doc.fragments.map((f) => [f.kind, f.startLine, f.endLine, f.text])).toEqual([
      ['heading', 4, 5, '# A\nbody'],
      ['whole', 4, 5, '# A\nbody'],
    ]);
  });

  it('an unclosed fence runs to the end; an empty body has no fragments', () => {
    const frags = splitFragments('text\n~~~\n# inside\n');
    expect(frags.map((f) => f.kind)).toEqual(['paragraph', 'code', 'whole']);
    expect(splitFragments('  \n\n')).toEqual([]);
  });
});
