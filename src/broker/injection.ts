// The prompt-injection scan: text in tool arguments that addresses the model instead of the
// tool (instructions, role-play markers, hidden unicode). Pure functions; no I/O.
import { firstInvisible } from '../shared/index.js';

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

/** Hidden characters: whatever the shared sanitiser strips from stored text (src/shared/text.ts). */
function hiddenUnicode(text: string): InjectionFinding | null {
  const hidden = firstInvisible(text);
  return hidden === null ? null : { rule: 'hidden-unicode', excerpt: hidden };
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
