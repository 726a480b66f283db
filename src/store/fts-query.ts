// Turns user text into a safe FTS5 query: words only, each quoted as a string (so `"`, `*`,
// NEAR, `-`, `:` and parentheses are text, never syntax), ORed so BM25 ranks partial matches.

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i ' +
    'if in into is it its me my no not of on or our she so that the their them then there these they ' +
    'this to was we were what when where which who whom why will with would you your'
  ).split(' '),
);

const MAX_TERMS = 32;

/** The distinct lower-cased words of `text`, stopwords dropped unless nothing else remains. */
export function queryTerms(text: string): string[] {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 256))];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : words).slice(0, MAX_TERMS);
}

/** An FTS5 MATCH expression ORing the quoted terms, or null when the text has no words. */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}
