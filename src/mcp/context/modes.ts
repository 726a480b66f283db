// Operation modes of the context server (spec "Operation Family Mode Matrix", as issue 14 reads
// it): where each family runs. stdio-only runs every family here; client-hybrid runs the
// families ticked in its column here and forwards the rest; server-hybrid forwards the ticked
// families to the shared `cairn serve` and does not serve the others. Pure table and lookup.
import { DomainError } from '../../shared/index.js';
import type { ContextFamilyName } from './family.js';

export const CONTEXT_MODES = ['stdio-only', 'client-hybrid', 'server-hybrid'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];
export const DEFAULT_CONTEXT_MODE: ContextMode = 'stdio-only';

/** Where one family's tools run in a mode. */
export type Placement = 'local' | 'remote' | 'unserved';

/** The spec's matrix: ✅ is true. One row per family, columns in CONTEXT_MODES order. */
export const MODE_MATRIX: Readonly<
  Record<ContextFamilyName, Readonly<Record<ContextMode, boolean>>>
> = {
  index: { 'stdio-only': true, 'client-hybrid': true, 'server-hybrid': true },
  search: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  validate: { 'stdio-only': true, 'client-hybrid': true, 'server-hybrid': false },
  memory: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  session: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  agent: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  project: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  vcs: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
  entity: { 'stdio-only': true, 'client-hybrid': false, 'server-hybrid': true },
};

export const isContextMode = (value: string): value is ContextMode =>
  (CONTEXT_MODES as readonly string[]).includes(value);

/** Whether `mode` forwards anything (and so needs a remote). */
export const needsRemote = (mode: ContextMode): boolean => mode !== 'stdio-only';

/**
 * Where `family` runs in `mode`: stdio-only → local; client-hybrid → local when ticked, else
 * remote; server-hybrid → remote when ticked, else unserved.
 */
export function placement(mode: ContextMode, family: ContextFamilyName): Placement {
  if (mode === 'stdio-only') return 'local';
  const ticked = MODE_MATRIX[family][mode];
  if (mode === 'client-hybrid') return ticked ? 'local' : 'remote';
  return ticked ? 'remote' : 'unserved';
}

/** The modes that serve `family` (locally or by forwarding), for messages. */
export function modesServing(family: ContextFamilyName): ContextMode[] {
  return CONTEXT_MODES.filter((m) => placement(m, family) !== 'unserved');
}

/** `_meta.denied.reason` of a tool whose family the server's mode does not serve. */
export const MODE_UNSERVED = 'mode_unserved';

/** A call to a tool whose family this mode does not serve (a tool error the model reads). */
export class ModeUnservedError extends DomainError {
  constructor(
    readonly tool: string,
    readonly family: ContextFamilyName,
    readonly mode: ContextMode,
  ) {
    super(
      MODE_UNSERVED,
      `${tool} is not served in ${mode} mode: the ${family} family runs only in ${modesServing(family).join(' and ')} (the spec's mode matrix). Start cairn mcp context with --mode ${modesServing(family).at(-1) ?? 'stdio-only'} to use it.`,
      { denied: MODE_UNSERVED },
    );
  }
}
