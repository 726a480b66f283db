// LoCoMo loader: reads ../shared/data/locomo/locomo10.json (never copied into the repo) into
// conversations of dated turns and the answerable (category 1–4) questions with clean evidence.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { ROOT } from '../../lib/report.js';

export const LOCOMO_PATH = resolve(ROOT, '..', 'shared', 'data', 'locomo', 'locomo10.json');

export interface Turn {
  /** Dialog id, e.g. "D1:3" (session 1, turn 3). */
  diaId: string;
  speaker: string;
  text: string;
  /** Caption of an image shared in the turn, when there is one. */
  caption?: string;
  session: number;
  /** Session date as the data writes it ("1:56 pm on 8 May, 2023"). */
  date: string;
}

export interface Question {
  sampleId: string;
  question: string;
  category: 1 | 2 | 3 | 4;
  /** Evidence dialog ids that exist in the conversation (never empty). */
  evidence: string[];
}

export interface Conversation {
  sampleId: string;
  turns: Turn[];
  questions: Question[];
}

export interface Locomo {
  path: string;
  conversations: Conversation[];
  /** Category 1–4 questions dropped because none of their evidence ids exists. */
  droppedQuestions: number;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface RawQa {
  question: string;
  category: number;
  evidence?: string[];
}
interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: RawQa[];
}

/** "D:11:26" → "D11:26", "D30:05" → "D30:5"; one raw entry may hold several ids. */
export function normaliseEvidence(raw: readonly string[]): string[] {
  const ids = raw.flatMap((entry) => entry.match(/D:?\d+:\d+/g) ?? []);
  return ids.map((id) => {
    const [, session, turn] = /^D:?(\d+):(\d+)$/.exec(id) ?? [];
    return `D${Number(session)}:${Number(turn)}`;
  });
}

function turnsOf(conversation: Record<string, unknown>): Turn[] {
  const sessions = Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return sessions.flatMap((session) => {
    const date = String(conversation[`session_${session}_date_time`] ?? '');
    const raw = conversation[`session_${session}`] as RawTurn[];
    return raw.map((t) => ({
      diaId: normaliseEvidence([t.dia_id])[0] ?? t.dia_id,
      speaker: t.speaker,
      text: t.text,
      ...(t.blip_caption === undefined ? {} : { caption: t.blip_caption }),
      session,
      date,
    }));
  });
}

/**
 * Loads LoCoMo from `path`.
 * @throws Error with a clear message when the file is missing (it lives outside the repo).
 */
export function loadLocomo(path = LOCOMO_PATH): Locomo {
  if (!existsSync(path)) {
    throw new Error(
      `LoCoMo data not found at ${path}. The memory eval reads ${join('..', 'shared', 'data', 'locomo', 'locomo10.json')} relative to the repo root; it is never copied into the repo.`,
    );
  }
  const samples = JSON.parse(readFileSync(path, 'utf8')) as RawSample[];
  let droppedQuestions = 0;
  const conversations = samples.map((s) => {
    const turns = turnsOf(s.conversation);
    const known = new Set(turns.map((t) => t.diaId));
    const questions: Question[] = [];
    for (const qa of s.qa) {
      if (qa.category < 1 || qa.category > 4) continue;
      const evidence = [...new Set(normaliseEvidence(qa.evidence ?? []))].filter((id) =>
        known.has(id),
      );
      if (evidence.length === 0) {
        droppedQuestions++;
        continue;
      }
      questions.push({
        sampleId: s.sample_id,
        question: qa.question,
        category: qa.category as Question['category'],
        evidence,
      });
    }
    return { sampleId: s.sample_id, turns, questions };
  });
  return { path, conversations, droppedQuestions };
}
