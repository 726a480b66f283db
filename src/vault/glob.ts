// Glob patterns for vault paths ('/'-separated, relative): `**` any depth, `*` and `?` within
// one segment, `{a,b}` alternatives, `[abc]` / `[!abc]` classes. Compiled to a RegExp once.
import { VaultInputError } from './errors.js';

const SPECIAL = /[.+^$()|\\]/;

/** Whether `pattern` uses glob syntax (otherwise it names paths literally). */
export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/**
 * A matcher for `pattern`.
 * @throws VaultInputError naming `field` on an unbalanced brace or bracket.
 */
export function compileGlob(pattern: string, field = 'pattern'): (path: string) => boolean {
  let re = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      depth += 1;
      re += '(?:';
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      re += ')';
    } else if (c === ',' && depth > 0) re += '|';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new VaultInputError(`${field}: unclosed [ in "${pattern}"`, field);
      const body = pattern
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\');
      re += `[${body}]`;
      i = end;
    } else re += SPECIAL.test(c) || c === '{' || c === '}' ? `\\${c}` : c;
  }
  if (depth !== 0) throw new VaultInputError(`${field}: unbalanced { in "${pattern}"`, field);
  const compiled = new RegExp(`^${re}$`);
  return (path) => compiled.test(path);
}
