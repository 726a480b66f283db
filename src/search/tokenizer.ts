// The tokenizer plug-in every search corpus is built on: documents and queries of one corpus go
// through the same tokenizer, so a query term and an indexed term always agree. Pure: no I/O.

/** One word of a text: where it is and the term it indexes as. */
export interface Token {
  start: number;
  end: number;
  /** Case- and diacritic-folded, before stemming. */
  word: string;
  term: string;
}

export interface Tokenizer {
  /** 'prose' | 'code' */
  readonly name: string;
  /** The terms of a document text in order, with offsets (several terms may share offsets). */
  tokenize(text: string): Token[];
  /** The distinct terms a query searches for. */
  queryTerms(text: string): string[];
}

/** Term → occurrences in `text`, and the text's length in tokens. */
export function termCounts(
  tokenizer: Tokenizer,
  text: string,
): { counts: Map<string, number>; length: number } {
  const tokens = tokenizer.tokenize(text);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t.term, (counts.get(t.term) ?? 0) + 1);
  return { counts, length: tokens.length };
}
