// English stopwords: dropped from queries (unless nothing else remains), never from documents.

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i ' +
    'if in into is it its me my no not of on or our she so that the their them then there these they ' +
    'this to was we were what when where which who whom why will with would you your'
  ).split(' '),
);
