// The prompt-injection scan: text in tool arguments that addresses the model instead of the
// tool (instructions, role-play markers, hidden unicode). Pure functions; no I/O.

export interface InjectionFinding {
  /** Which rule matched: a stable name for audit and tests. */
  rule: string;
  /** A short, printable excerpt of what matched. */
  excerpt: string;
}

const W = String.raw`[\s\p{P}]+`;
const rx = (source: string): RegExp => new RegExp(source, 'iu');

/** Phrases that try to replace the model's instructions or policy. */
const INSTRUCTION_RULES: ReadonlyArray<[string, RegExp]> = [
  [
    'override-instructions',
    rx(
      String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)${W}(?:(?:all|any|every|each|of|the|your|my|these|those|previous|prior|above|earlier|preceding|system|safety)${W}){0,4}(?:instructions?|prompts?|rules|directives|guidelines|guardrails|policies|restrictions|system\s+prompt)\b`,
    ),
  ],
  [
    'new-instructions',
    rx(
      String.raw`\b(?:new|updated|real|actual)\s+(?:system\s+)?instructions?\s*:|\bfrom\s+now\s+on,?\s+you\s+(?:will|must|are|shall)\b`,
    ),
  ],
  [
    'persona-switch',
    rx(
      String.raw`\byou\s+are\s+now\s+(?:DAN\b|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue)\b|in\s+developer\s+mode)|\b(?:act|behave)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil)\b|\bpretend\s+(?:to\s+be|you\s+are)\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|different)\b|\b(?:enable|activate|enter)\s+(?:developer|god|dan)\s+mode\b|\bdeveloper\s+mode\s+(?:enabled|activated)\b|\bjailbreak(?:ed)?\s+mode\b`,
    ),
  ],
  [
    'prompt-exfiltration',
    rx(
      String.raw`\b(?:reveal|print|show|output|repeat|leak|dump)\s+(?:me\s+)?(?:your|the)\s+(?:(?:hidden|secret|initial|original|full)\s+)?(?:system\s+prompt|instructions|hidden\s+prompt)\b`,
    ),
  ],
  ['conceal-from-user', rx(String.raw`\bdo\s+not\s+(?:tell|inform|alert|show)\s+the\s+user\b`)],
];

/** Chat-template and transcript markers that fake a turn from someone other than the user. */
const ROLE_RULES: ReadonlyArray<[string, RegExp]> = [
  [
    'chat-template',
    rx(String.raw`<\|(?:im_start|im_end|system|assistant|user|endoftext)\|>|\[/?INST\]|<<\/?SYS>>`),
  ],
  ['role-tag', rx(String.raw`<\/?(?:system|assistant|developer)\s*>`)],
  ['role-line', new RegExp(String.raw`(?:^|\n)[ \t>#*]*(?:system|assistant|developer)\s*:`, 'iu')],
  ['instruction-header', rx(String.raw`(?:^|\n)\s*#{2,}\s*(?:system|instruction|instructions)\b`)],
  ['envelope', rx(String.raw`\[Inter-session message\s*·`)],
];

/** Always-hidden characters: zero width, bidi controls, word joiners, BOM, tag characters. */
const HIDDEN =
  /[\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u180E]|[\u{E0000}-\u{E007F}]/u;
/** ZWNJ / ZWJ are legitimate inside emoji sequences and non-Latin scripts (Persian, Indic). */
const JOINER = /[\u200C\u200D]/gu;
const JOINABLE =
  /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\p{M}]|(?![\p{Script=Latin}])\p{L}/u;

const codepoint = (ch: string): string =>
  `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

function hiddenUnicode(text: string): InjectionFinding | null {
  const hidden = HIDDEN.exec(text);
  if (hidden !== null) return { rule: 'hidden-unicode', excerpt: codepoint(hidden[0]) };
  for (const m of text.matchAll(JOINER)) {
    const before = [...text.slice(Math.max(0, m.index - 2), m.index)].at(-1) ?? '';
    if (!JOINABLE.test(before)) return { rule: 'hidden-unicode', excerpt: codepoint(m[0]) };
  }
  return null;
}

const excerptOf = (match: string): string => match.replace(/\s+/g, ' ').trim().slice(0, 60);

/** Scans one string; null when it reads as ordinary data. */
export function scanText(text: string): InjectionFinding | null {
  const hidden = hiddenUnicode(text);
  if (hidden !== null) return hidden;
  const normal = text.normalize('NFKC');
  for (const [rule, re] of [...INSTRUCTION_RULES, ...ROLE_RULES]) {
    const m = re.exec(normal);
    if (m !== null) return { rule, excerpt: excerptOf(m[0]) };
  }
  return null;
}

/** Every string in a parsed argument object, with its dotted path. */
export function stringsOf(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path || '(arguments)', value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringsOf(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) =>
      stringsOf(v, path === '' ? k : `${path}.${k}`),
    );
  }
  return [];
}
