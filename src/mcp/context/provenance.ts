// Execution provenance for one context tool call (spec: "Provenance Requirements"): the
// process's discovery, the request `_meta` overriding any field, the session's client name as
// agent_program, and the agent a verified token named as authenticated_agent; checked for the
// tool's family before it runs, and returned in `_meta`.
import {
  type Discovery,
  type Provenance,
  type ProvenanceFamily,
  requireProvenance,
  resolveProvenance,
} from '../../activity/index.js';
import type { ToolCallContext } from '../tool.js';

/** The result `_meta` key holding the provenance a call ran with. */
export const PROVENANCE_META_KEY = 'cairn/provenance';

/** What withProvenance needs from a call: its `_meta`, its client, and the discovery. */
interface ProvenanceSource extends Pick<ToolCallContext, 'meta' | 'client'> {
  discovered: () => Promise<Discovery>;
  /** The agent a verified token named (recorded as `authenticated_agent`), if any. */
  authenticatedAgent?: string | undefined;
}

/**
 * This call's provenance for `family`, checked.
 * @throws ProvenanceInvalidError for a bad `_meta` value, ProvenanceMissingError for a field
 *   no source supplied (both become JSON-RPC -32602 in mapError, with the spec's message).
 */
export async function callProvenance(
  family: ProvenanceFamily,
  source: ProvenanceSource,
): Promise<Provenance> {
  const { provenance } = await source.discovered();
  const clientName = source.client === undefined ? {} : { clientName: source.client };
  const checked = requireProvenance(family, resolveProvenance(provenance, source.meta, clientName));
  const agent = source.authenticatedAgent;
  return agent === undefined ? checked : { ...checked, authenticated_agent: agent };
}

/**
 * Runs `fn` with this call's provenance for `family` (see callProvenance) and adds what it ran
 * with to the output's `_meta` under PROVENANCE_META_KEY. Nothing runs when a field is missing.
 */
export async function withProvenance<R extends { meta?: Record<string, unknown> }>(
  family: ProvenanceFamily,
  source: ProvenanceSource,
  fn: (provenance: Provenance) => Promise<R>,
): Promise<R> {
  const provenance = await callProvenance(family, source);
  const out = await fn(provenance);
  return { ...out, meta: { ...out.meta, [PROVENANCE_META_KEY]: provenance } };
}

/**
 * This call's provenance, resolved but not required (the session and agent families record it
 * where it is known; the spec requires it only of index, search and memory).
 * @throws ProvenanceInvalidError for a bad `_meta` value (JSON-RPC -32602).
 */
export async function resolvedProvenance(source: ProvenanceSource): Promise<Provenance> {
  const { provenance } = await source.discovered();
  const clientName = source.client === undefined ? {} : { clientName: source.client };
  const resolved = resolveProvenance(provenance, source.meta, clientName);
  const agent = source.authenticatedAgent;
  return agent === undefined ? resolved : { ...resolved, authenticated_agent: agent };
}
