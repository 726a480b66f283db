// The tokenizer plug-in interface of the search module: a tokenizer turns a document text into
// terms with offsets (for postings and snippets) and a query into the distinct terms it
// searches for. Types only: no tokenizer lives here.

/** One term of a text: where it is and what it indexes as. */
export interface Token {
  start: number;
  end: number;
  /** Case- and diacritic-folded, before stemming. */
  word: string;
  term: string;
}

/** A tokenizer: documents and queries go through the same rules, so their terms agree. */
export interface Tokenizer {
  readonly name: string; // 'prose' | 'code'
  /** The terms of a document text in order, with offsets (several terms may share offsets). */
  tokenize(text: string): Token[];
  /** The distinct terms a query searches for. */
  queryTerms(text: string): string[];
}
