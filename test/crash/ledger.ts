// What the crash run's clients tried to write and what they saw acknowledged. Each write
// carries a marker unique to it, so the checker can find it (or its remains) in the file.
// A write is acknowledged only when its client received a success answer.

export type WriteKind =
  | 'task'
  | 'comment'
  | 'claim'
  | 'fact'
  | 'procedure'
  | 'post'
  | 'delegation'
  | 'note'
  | 'gated_call'
  | 'decision';

export const WRITE_KINDS: readonly WriteKind[] = [
  'task',
  'comment',
  'claim',
  'fact',
  'procedure',
  'post',
  'delegation',
  'note',
  'gated_call',
  'decision',
];

export type Fields = Record<string, string | number>;

export interface Write {
  readonly kind: WriteKind;
  readonly marker: string;
  /** What the client sent that the checker needs (a parent id, a procedure name…). */
  readonly sent: Fields;
  /** What the success answer said (an id, a seq…); undefined while unacknowledged. */
  acked: Fields | undefined;
}

/** The writes of one run, in the order they were started. */
export class Ledger {
  readonly writes: Write[] = [];
  #next = 0;

  /** A marker unique in this run: letters and digits only, one full-text token. */
  marker(prefix: string): string {
    this.#next += 1;
    return `${prefix}${this.#next.toString(36)}q${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Records a write about to be sent. */
  start(kind: WriteKind, marker: string, sent: Fields = {}): Write {
    const w: Write = { kind, marker, sent, acked: undefined };
    this.writes.push(w);
    return w;
  }

  of(kind: WriteKind): Write[] {
    return this.writes.filter((w) => w.kind === kind);
  }

  acked(kind?: WriteKind): Write[] {
    return this.writes.filter(
      (w) => w.acked !== undefined && (kind === undefined || w.kind === kind),
    );
  }
}
