// Sentence splitting for plain text and markdown: code fences dropped, headings and list
// markers stripped, paragraph lines joined, then split after . ! ? before a capital or digit.

/** The text's sentences, trimmed, in order. */
export function splitSentences(text: string): string[] {
  const prose = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join(' '));
    current = [];
  };
  for (const raw of prose.split(/\r?\n/)) {
    const line = raw.trim();
    const item = /^(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/.exec(line);
    if (line === '' || item !== null) flush();
    if (line !== '') current.push(item === null ? line : line.slice(item[0].length));
    if (item !== null && /^#/.test(line)) flush();
  }
  flush();
  return blocks
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=["'(]?[\p{Lu}\p{N}])/u))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
