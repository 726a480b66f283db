// Which named graph a cairn-graph connection (or an import) may address: a plain name of letters,
// digits, '_', '.', '-'; names starting with `vault:` hold a vault's extracted facts and are
// refused here (the vault writes them, kg_query reads them). Pure: no I/O.
import { InvalidInputError } from '../shared/index.js';

/** A graph name: 1–64 letters, digits, '_', '.', '-', starting with a letter or digit. */
export const GRAPH_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The prefix of the graphs the vault owns (`vault:<vault name>`). */
export const RESERVED_GRAPH_PREFIX = 'vault:';

/** A graph name that is malformed or reserved; `field` names where it came from. */
export class GraphNameError extends InvalidInputError {}

/** Why a connection may not serve `name` (a reserved or malformed name), else null. */
export function graphNameProblem(name: string): string | null {
  if (name.toLowerCase().startsWith(RESERVED_GRAPH_PREFIX))
    return `graph "${name}" is reserved: graphs named ${RESERVED_GRAPH_PREFIX}<vault> hold a vault's extracted facts (query them with cairn-vault's kg_query)`;
  if (!GRAPH_NAME.test(name))
    return `bad graph name "${name.slice(0, 100)}": 1–64 letters, digits, '_', '.' or '-', starting with a letter or digit`;
  return null;
}

/**
 * `name` when a connection may serve it. `source` names where it came from (`--graph`,
 * `CAIRN_GRAPH_NAME`, `graph`) and opens the message.
 * @throws GraphNameError for a reserved `vault:` name or one outside GRAPH_NAME
 */
export function checkGraphName(name: string, source: string): string {
  const problem = graphNameProblem(name);
  if (problem !== null) throw new GraphNameError(`${source}: ${problem}`, source);
  return name;
}
