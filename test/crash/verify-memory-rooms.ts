// Memory and room checks of a crashed file: each saved item is in the full-text index and
// the BM25 postings (or marked for them), procedure versions run 1..n with one active, and
// each room's posts are numbered 1..n without a gap, every author on the roster.
import { CRASH_AUTHOR, CRASH_TEAM } from './fleet.js';
import type { Ledger } from './ledger.js';
import type { Db, Findings } from './verify.js';

interface ItemRow {
  rowid: number;
  id: string;
  kind: string;
  name: string | null;
  version: number;
  title: string;
  content: string;
  lifecycle: string;
  scope: string;
  scope_key: string;
}

/** Procedure versions of one name and scope: 1..n, only the newest active. */
function versionProblems(items: readonly ItemRow[]): string[] {
  const groups = new Map<string, ItemRow[]>();
  for (const it of items) {
    if (it.kind !== 'procedure') continue;
    const key = `${it.scope}/${it.name ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), it]);
  }
  const problems: string[] = [];
  for (const [key, rows] of groups) {
    const versions = rows.map((r) => r.version).sort((a, b) => a - b);
    if (versions.some((v, i) => v !== i + 1))
      problems.push(`procedure ${key} versions are ${versions.join(',')}, not 1..${rows.length}`);
    const active = rows.filter((r) => r.lifecycle === 'active');
    if (active.length !== 1 || active[0]?.version !== rows.length)
      problems.push(
        `procedure ${key} has ${active.length} active versions (want only v${rows.length})`,
      );
  }
  return problems;
}

/** Facts and procedures: the row, its FTS entry, its postings (or dirty mark), its version. */
export function checkMemory(conn: Db, ledger: Ledger): Findings {
  const whole = new Set<number>();
  const items = conn
    .prepare(
      `SELECT rowid, id, kind, name, version, title, content, lifecycle, scope_key,
         tenant_id || '/' || team_id || '/' || agent_id AS scope
       FROM memory_items WHERE deleted_at IS NULL`,
    )
    .all() as ItemRow[];
  const indexed = new Set(
    (
      conn
        .prepare('SELECT item_id FROM memory_postings_docs WHERE terms IS NOT NULL')
        .all() as Array<{ item_id: number }>
    ).map((r) => r.item_id),
  );
  const dirty = new Set(
    (
      conn.prepare('SELECT item_id FROM memory_postings_dirty').all() as Array<{ item_id: number }>
    ).map((r) => r.item_id),
  );
  const problems = versionProblems(items);
  for (const it of items) {
    if (it.scope_key !== '' && !indexed.has(it.rowid) && !dirty.has(it.rowid))
      problems.push(
        `memory item ${it.id} is searchable but neither in the postings nor marked dirty`,
      );
  }
  const fts = conn.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?');
  const inFts = (it: ItemRow, marker: string): boolean =>
    (fts.all(`"${marker}"`) as Array<{ rowid: number }>).some((r) => r.rowid === it.rowid);
  const byTitle = new Map(items.map((it) => [it.title, it]));
  const byContent = new Map(items.map((it) => [it.content, it]));
  ledger.writes.forEach((w, i) => {
    if (w.kind !== 'fact' && w.kind !== 'procedure') return;
    const it =
      w.kind === 'fact'
        ? byTitle.get(`fact ${w.marker}`)
        : byContent.get(`step ${w.marker}: run the checks`);
    if (it === undefined || !inFts(it, w.marker)) return;
    if (w.acked !== undefined && w.acked['id'] !== it.id) return;
    if (w.kind === 'procedure' && it.name !== w.sent['name']) return;
    if (w.kind === 'procedure' && w.acked !== undefined && w.acked['version'] !== it.version)
      return;
    whole.add(i);
  });
  return { problems, whole };
}

/** Posts: present at their acknowledged seq, numbered without gaps, authors on the roster. */
export function checkRooms(conn: Db, ledger: Ledger): Findings {
  const problems: string[] = [];
  const whole = new Set<number>();
  const rooms = conn
    .prepare(
      'SELECT room_id, COUNT(*) AS n, MIN(seq) AS lo, MAX(seq) AS hi FROM room_posts GROUP BY room_id',
    )
    .all() as Array<{ room_id: string; n: number; lo: number; hi: number }>;
  for (const r of rooms) {
    if (r.lo !== 1 || r.hi !== r.n)
      problems.push(`room ${r.room_id}: ${r.n} posts numbered ${r.lo}..${r.hi}`);
  }
  const strays = conn
    .prepare(
      `SELECT DISTINCT p.room_id, p.author_agent_id FROM room_posts p
       LEFT JOIN room_members m ON m.room_id = p.room_id AND m.agent_id = p.author_agent_id
       WHERE m.agent_id IS NULL`,
    )
    .all() as Array<{ room_id: string; author_agent_id: string }>;
  for (const s of strays)
    problems.push(`room ${s.room_id}: author ${s.author_agent_id} not on the roster`);
  const posts = new Map(
    (
      conn
        .prepare('SELECT seq, author_agent_id, text FROM room_posts WHERE room_id = ?')
        .all(`team:${CRASH_TEAM}`) as Array<{ seq: number; author_agent_id: string; text: string }>
    ).map((p) => [p.text, p]),
  );
  ledger.writes.forEach((w, i) => {
    if (w.kind !== 'post') return;
    const p = posts.get(`post ${w.marker}`);
    if (p === undefined || p.author_agent_id !== CRASH_AUTHOR) return;
    if (w.acked !== undefined && w.acked['seq'] !== p.seq) return;
    whole.add(i);
  });
  return { problems, whole };
}
