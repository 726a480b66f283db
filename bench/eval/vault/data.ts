// The vault eval's judged set, built from LoCoMo (read in place from ../shared/data): each
// conversation becomes one vault whose documents are its sessions as dated markdown files, and
// each category 1–4 question's gold is the set of sessions holding its evidence turns.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type Conversation, loadLocomo, type Turn } from '../memory/data.js';

export interface SessionDoc {
  /** Path relative to the vault's content root. */
  path: string;
  session: number;
  /** ISO date of the session. */
  date: string;
  markdown: string;
}

export interface VaultQuestion {
  question: string;
  category: 1 | 2 | 3 | 4;
  /** Paths of the sessions holding the evidence. */
  gold: string[];
}

export interface VaultCase {
  /** The vault's name (the LoCoMo sample id). */
  vault: string;
  docs: SessionDoc[];
  questions: VaultQuestion[];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z"; the raw text when it does not parse. */
export function sessionDate(raw: string): string {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(raw);
  if (m === null) return raw;
  const [, h, min, ampm, day, month, year] = m;
  const mi = MONTHS.indexOf((month ?? '').toLowerCase());
  if (mi < 0) return raw;
  const hour = (Number(h) % 12) + ((ampm ?? '').toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(year), mi, Number(day), hour, Number(min)))
    .toISOString()
    .replace('.000', '');
}

const pathOf = (session: number): string =>
  `sessions/session-${String(session).padStart(2, '0')}.md`;

function sessionMarkdown(session: number, turns: readonly Turn[]): string {
  const date = turns[0]?.date ?? '';
  const speakers = [...new Set(turns.map((t) => t.speaker))];
  const lines = turns.map(
    (t) =>
      `**${t.speaker}:** ${t.text}${t.caption === undefined ? '' : ` [shared an image: ${t.caption}]`}`,
  );
  return [
    '---',
    `title: "Session ${session}: ${speakers.join(' and ')}"`,
    `date: ${sessionDate(date)}`,
    'type: session',
    '---',
    '',
    `# Session ${session} (${date})`,
    '',
    ...lines.flatMap((l) => [l, '']),
  ].join('\n');
}

export function caseOf(c: Conversation): VaultCase {
  const bySession = new Map<number, Turn[]>();
  for (const t of c.turns) bySession.set(t.session, [...(bySession.get(t.session) ?? []), t]);
  const docs = [...bySession.entries()].map(([session, turns]) => ({
    path: pathOf(session),
    session,
    date: sessionDate(turns[0]?.date ?? ''),
    markdown: sessionMarkdown(session, turns),
  }));
  const questions = c.questions.map((q) => ({
    question: q.question,
    category: q.category,
    gold: [...new Set(q.evidence.map((id) => pathOf(Number(/^D(\d+):/.exec(id)?.[1]))))],
  }));
  return { vault: c.sampleId, docs, questions };
}

/** Every conversation as a case. */
export function loadVaultCases(): VaultCase[] {
  return loadLocomo().conversations.map(caseOf);
}

/** Writes a case's documents under `root` (its content root). */
export function writeCase(root: string, c: VaultCase): void {
  for (const d of c.docs) {
    const file = join(root, d.path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, d.markdown);
  }
}
