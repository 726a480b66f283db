// The vault bench's corpus: N markdown documents generated deterministically (seeded), shaped
// like an agent team's notes: frontmatter (type, date, tags), a title heading, sections with
// paragraphs, lists and the odd code block, sizes spread from a few hundred bytes to ~12 KB
// around a ~2.5 KB median. Written to a folder tree (decisions/, handoffs/, notes/, …).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TYPES = ['note', 'decision', 'handoff', 'research', 'progress', 'reference'] as const;
const FOLDERS: Record<(typeof TYPES)[number], string> = {
  note: 'notes',
  decision: 'decisions',
  handoff: 'handoffs',
  research: 'research',
  progress: 'progress',
  reference: 'reference',
};
const TOPICS = [
  'billing',
  'auth',
  'search',
  'ingest',
  'deploy',
  'queue',
  'cache',
  'schema',
  'api',
  'mobile',
  'metrics',
  'alerts',
  'backup',
  'storage',
  'payments',
  'onboarding',
  'export',
  'webhooks',
  'sso',
  'rate limits',
];
const WORDS =
  'the a service request retry timeout latency index migration rollout flag config token session client server worker job batch window budget owner review incident fix regression test coverage release branch merge schema column table query plan cost risk decision reason because after before agreed measured observed expected failed passed slow fast small large stale fresh cache hit miss write read lock contention backoff jitter quota limit tenant user team agent model prompt context memory vault document fragment heading list code block'.split(
    ' ',
  );

/** Mulberry32: a small seeded PRNG, so every run writes the same corpus. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedDoc {
  path: string;
  markdown: string;
}

function docOf(i: number, rand: () => number): GeneratedDoc {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const type = pick(TYPES);
  const topic = pick(TOPICS);
  const sentence = (n: number): string => {
    const w = Array.from({ length: n }, () => pick(WORDS));
    return `${w.join(' ')} ${topic}.`.replace(/^./, (c) => c.toUpperCase());
  };
  // Log-normal-ish size: most documents 1–4 KB, a tail to ~12 KB.
  const sections = Math.max(1, Math.min(12, Math.round(Math.exp(rand() * 1.8 + 0.6))));
  const day = new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 700) * 86_400_000);
  const out = [
    '---',
    `title: ${topic} ${type} ${i}`,
    `type: ${type}`,
    `date: ${day.toISOString().slice(0, 10)}`,
    `tags: [${topic.replace(' ', '-')}, ${pick(TOPICS).replace(' ', '-')}]`,
    '---',
    '',
    `# ${topic[0]?.toUpperCase()}${topic.slice(1)} ${type} ${i}`,
    '',
  ];
  for (let s = 0; s < sections; s++) {
    out.push(`## ${pick(WORDS)} ${pick(WORDS)} ${topic}`, '');
    out.push(
      Array.from({ length: 2 + Math.floor(rand() * 4) }, () =>
        sentence(8 + Math.floor(rand() * 12)),
      ).join(' '),
      '',
    );
    const r = rand();
    if (r < 0.35) {
      for (let k = 0; k < 3 + Math.floor(rand() * 4); k++)
        out.push(`- ${sentence(4 + Math.floor(rand() * 6))}`);
      out.push('');
    } else if (r < 0.45) {
      out.push(
        '```ts',
        `const ${pick(WORDS)}${s} = await ${topic.replace(' ', '')}.${pick(WORDS)}({ retries: ${s} });`,
        '```',
        '',
      );
    }
  }
  return {
    path: `${FOLDERS[type]}/${topic.replace(' ', '-')}/${type}-${i}.md`,
    markdown: out.join('\n'),
  };
}

/** Writes `n` documents under `root`; returns their paths and total bytes. */
export function generateVault(
  root: string,
  n: number,
  seed = 42,
): { paths: string[]; bytes: number } {
  const rand = prng(seed);
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const d = docOf(i, rand);
    const file = join(root, d.path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, d.markdown);
    paths.push(d.path);
    bytes += Buffer.byteLength(d.markdown);
  }
  return { paths, bytes };
}
