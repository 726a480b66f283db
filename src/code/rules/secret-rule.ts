// The hard-coded secret rule: runs the memory scrubber's detector (secretlint's preset plus
// Cairn's patterns) over the file text and reports where each secret starts. It never puts the
// secret itself in a finding, only its kind.
import { createScrubber, type Scrubber } from '../../memory/index.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import type { RawFinding, Rule, RuleContext } from './types.js';

/** Languages the secret rule is tested in (the detector reads plain text, so any would do). */
const SECRET_LANGUAGES: readonly CodeLanguage[] = CODE_LANGUAGES;

let shared: Scrubber | undefined;

/** One scrubber per process: building the secretlint config is the costly part. */
function scrubber(): Scrubber {
  shared ??= createScrubber();
  return shared;
}

/** 1-based line and column of a UTF-16 offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

export const SECRET_RULE: Rule = {
  id: 'hardcoded-secret',
  category: 'security',
  severity: 'error',
  languages: SECRET_LANGUAGES,
  description:
    "A credential written into the source (API keys, tokens, private keys, passwords in URLs or assignments), found by the memory scrubber's detector.",
  async check(context: RuleContext): Promise<RawFinding[]> {
    const { findings } = await scrubber().scrub(context.text);
    return findings.map((f) => ({
      ...position(context.text, f.start),
      message: `hard-coded secret (${f.kind}); move it to the environment or a secret store`,
    }));
  },
};
