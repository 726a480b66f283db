// The secret scrubber every memory write path runs first: before hashing, indexing and
// embedding, so a secret never reaches disk. It detects (secretlint's recommend preset plus
// our own patterns) and replaces; it never stores, logs or returns the secrets it found.
import { DomainError } from '../shared/errors.js';
import { detectAssignments } from './scrub/assignments.js';
import { detectPatterns } from './scrub/patterns.js';
import { isOnlySentinels, mergeDetections, replaceSpans, sentinelKinds } from './scrub/ranges.js';
import { buildLintConfig, detectWithSecretlint } from './scrub/secretlint.js';

export { isOnlySentinels, sentinel, sentinelKinds, SENTINEL_PATTERN } from './scrub/ranges.js';

/** One redacted span. Offsets are UTF-16 code-unit indexes into the ORIGINAL text. */
export interface ScrubFinding {
  /** Kebab-case kind, as in the sentinel: `aws-access-key`, `password`, `private-key`, … */
  kind: string;
  start: number;
  end: number;
}

export interface ScrubResult {
  /** The text with every finding replaced by `[REDACTED:<kind>]`. */
  text: string;
  /** Disjoint findings sorted by start; overlapping detections are merged into one. */
  findings: ScrubFinding[];
  /** True when the scrubbed text is sentinels plus whitespace and punctuation, nothing else. */
  onlySentinels: boolean;
}

export interface ScrubberOptions {
  /** Exact values never redacted (a published demo key, a fixture). Use sparingly. */
  allow?: readonly string[];
  /** Extra key words (matched as a key's last word, case-insensitive) that name a secret. */
  secretKeyWords?: readonly string[];
}

export interface Scrubber {
  /**
   * Finds and redacts secrets in `text`. Idempotent: scrubbing scrubbed text changes nothing.
   * Rejects only if the detector itself fails; callers must then refuse the write.
   */
  scrub(text: string): Promise<ScrubResult>;
}

/**
 * Builds a scrubber. The secretlint config is built here, once; each `scrub` call only runs
 * the detectors. Holds no state between calls, so one scrubber can serve every write path.
 */
export function createScrubber(options: ScrubberOptions = {}): Scrubber {
  const config = buildLintConfig();
  const allow = new Set(options.allow ?? []);
  const keyWords = new Set((options.secretKeyWords ?? []).map((w) => w.toLowerCase()));

  async function scrub(text: string): Promise<ScrubResult> {
    if (text === '') return { text, findings: [], onlySentinels: false };
    const detections = [
      ...(await detectWithSecretlint(text, config)),
      ...detectPatterns(text),
      ...detectAssignments(text, keyWords),
    ].filter((d) => {
      const found = text.slice(d.start, d.end);
      // An earlier sentinel is never a secret: this keeps scrubbing idempotent.
      return !allow.has(found) && !isOnlySentinels(found);
    });
    const spans = mergeDetections(detections);
    const scrubbed = replaceSpans(text, spans);
    return {
      text: scrubbed,
      findings: spans.map(({ kind, start, end }) => ({ kind, start, end })),
      onlySentinels: isOnlySentinels(scrubbed),
    };
  }

  return { scrub };
}

/**
 * The refusal for content that scrubs down to nothing but sentinels: saving it would store
 * only `[REDACTED:…]`. Façades turn it into a tool-error with `_meta.denied: secret_only`.
 */
export class SecretOnlyContentError extends DomainError {
  readonly kinds: readonly string[];

  constructor(field: string, kinds: readonly string[]) {
    const list = [...new Set(kinds)].join(', ');
    super(
      'secret_only',
      `save declined: ${field} is nothing but secrets (${list}); secrets are never stored — save what the secret is for, not the secret itself`,
      { denied: 'secret_only' },
    );
    this.kinds = [...new Set(kinds)];
  }
}

/**
 * Throws SecretOnlyContentError when a scrub result is nothing but sentinels; returns the
 * scrubbed text otherwise. `field` names the input in the refusal (`content`, `title`).
 */
export function requireContent(result: ScrubResult, field: string): string {
  if (!result.onlySentinels) return result.text;
  throw new SecretOnlyContentError(field, sentinelKinds(result.text));
}
