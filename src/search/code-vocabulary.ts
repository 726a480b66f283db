// The code tokenizer's small hand-made vocabulary: the query stopwords of code questions and
// the abbreviations code writes for common words (dict ↔ dictionary). General programming
// usage, written down once; never derived from an evaluation's answers.

/**
 * Names of programming languages as questions write them ("… in python"). A question names
 * the language it is asked in, not something to find in the code.
 */
export const CODE_LANGUAGE_WORDS: ReadonlySet<string> = new Set(
  (
    'python py python2 python3 javascript js typescript java golang kotlin csharp php ruby ' +
    'rustlang cpp'
  ).split(' '),
);

/** English function words (as the prose stopwords), question filler and language names. */
export const CODE_QUERY_STOPWORDS: ReadonlySet<string> = new Set([
  ...(
    'a an and are as at be been but by can could did do does for from had has have he her his how i ' +
    'if in into is it its me my no not of on or our she so that the their them then there these they ' +
    'this to was we were what when where which who whom why will with would you your s t using use way'
  ).split(' '),
  ...CODE_LANGUAGE_WORDS,
]);

/**
 * Groups of words code and questions use for one thing. A query term from a group also
 * searches the others (stemmed as the tokenizer stems them).
 */
export const CODE_SYNONYMS: readonly (readonly string[])[] = [
  ['dict', 'dictionary'],
  ['str', 'string'],
  ['len', 'length'],
  ['int', 'integer'],
  ['num', 'number'],
  ['arr', 'array'],
  ['arg', 'args', 'argument'],
  ['param', 'params', 'parameter'],
  ['dir', 'directory', 'folder'],
  ['func', 'function', 'fn'],
  ['obj', 'object'],
  ['val', 'value'],
  ['var', 'variable'],
  ['char', 'character'],
  ['bool', 'boolean'],
  ['err', 'error'],
  ['msg', 'message'],
  ['img', 'image'],
  ['idx', 'index'],
  ['db', 'database'],
  ['cfg', 'conf', 'config', 'configuration'],
  ['tmp', 'temp', 'temporary'],
  ['env', 'environment'],
  ['req', 'request'],
  ['resp', 'response'],
  ['max', 'maximum'],
  ['min', 'minimum'],
  ['init', 'initialize', 'initialise'],
  ['exec', 'execute'],
  ['re', 'regex', 'regexp'],
  ['np', 'numpy'],
  ['pd', 'pandas'],
  ['df', 'dataframe'],
  ['ts', 'timestamp'],
  ['cwd', 'pwd'],
  ['lower', 'lowercase'],
  ['upper', 'uppercase'],
];

/** Term → its group's terms, for a tokenizer that stems with `stem`. */
export function synonymGroups(
  groups: readonly (readonly string[])[],
  stem: (word: string) => string,
): Map<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const group of groups) {
    const terms = [...new Set(group.map(stem))];
    for (const t of terms) map.set(t, terms);
  }
  return map;
}
