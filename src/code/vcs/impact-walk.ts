// The breadth-first walk behind analyze_impact: from the changed symbols, by simple name,
// through the graph's call and reference edges to `depth` hops; importers of the defining
// files join as file-level dependents (they do not propagate). Also the freshness check.
import { exportersOf, samePackage } from './exporters.js';
import type { GraphFreshness, ImpactDependent, ImpactFile } from './impact-types.js';
import { importNames } from './import-resolve.js';
import { isTestPath } from './score.js';
import type { GraphReference, ReferenceGraph, SymbolChange } from './types.js';

/** A definition the walk looks for uses of. */
interface Def {
  /** Where it is defined in the graph's tree (the target side). */
  path: string;
  symbol: string;
  /** The key reported as `uses` and in `referenced`. */
  key: string;
  name: string;
}

/** Constructors are used through their type's name. */
const CONSTRUCTORS = new Set(['constructor', '__init__', 'new', 'initialize', '__construct']);

/** The simple name uses of `symbol` are recorded under (a constructor: its type's name). */
function queryName(symbol: string): string {
  const dot = symbol.lastIndexOf('.');
  const name = symbol.slice(dot + 1);
  if (!CONSTRUCTORS.has(name) || dot < 0) return name;
  const container = symbol.slice(0, dot);
  return container.slice(container.lastIndexOf('.') + 1);
}

const RANK = { call: 3, reference: 2, import: 1 } as const;
const nodeKey = (path: string, symbol: string | null) => `${path}\0${symbol ?? ''}`;

export interface WalkResult {
  dependents: ImpactDependent[];
  files: ImpactFile[];
  /** Keys (`path\0symbol`) of the seeds something depends on directly. */
  referenced: Set<string>;
  truncated: boolean;
}

interface WalkOptions {
  depth: number;
  maxDependents: number;
  /** Base path → target path of renamed files (a removed symbol's file may have moved). */
  renamed: Map<string | null, string>;
}

/** One walk's state: what was found, what was visited, the importing files seen so far. */
class DependentWalk {
  readonly found = new Map<string, ImpactDependent>();
  readonly referenced = new Set<string>();
  private readonly imports = new Map<string, readonly string[]>();
  private readonly exporters = new Map<string, readonly string[]>();
  private readonly visited = new Set<string>();
  truncated = false;

  constructor(
    private readonly graph: ReferenceGraph,
    private readonly maxDependents: number,
  ) {}

  seed(seeds: readonly SymbolChange[], renamed: WalkOptions['renamed']): Def[] {
    return seeds.map((s) => {
      const path = renamed.get(s.path) ?? s.path;
      this.visited.add(nodeKey(path, s.symbol));
      return { path, symbol: s.symbol, key: `${s.path}\0${s.symbol}`, name: queryName(s.symbol) };
    });
  }

  /**
   * One hop: uses of the frontier by name, then importers of its files. Returns the next
   * frontier: this hop's new dependents that are declarations and linked (a match by name
   * alone is reported, not followed, so a common name cannot flood the walk).
   */
  async step(frontier: readonly Def[], depth: number): Promise<Def[]> {
    const byName = new Map<string, Def[]>();
    for (const def of frontier) byName.set(def.name, [...(byName.get(def.name) ?? []), def]);
    const refs = await this.graph.referencesTo([...byName.keys()]);
    const unknown = [...new Set(refs.map((r) => r.path))].filter((p) => !this.imports.has(p));
    for (const [path, specs] of await this.graph.importsOf(unknown)) this.imports.set(path, specs);
    for (const def of frontier) {
      if (!this.exporters.has(def.path)) {
        this.exporters.set(def.path, await exportersOf(this.graph, def.path));
      }
    }
    for (const ref of refs) this.nameEdge(ref, byName.get(ref.name) ?? [], depth);
    await this.importEdges(frontier, depth);
    const next: Def[] = [];
    for (const dep of this.found.values()) {
      if (dep.depth !== depth || !dep.linked || dep.symbol === null) continue;
      const key = nodeKey(dep.path, dep.symbol);
      this.visited.add(key);
      next.push({ path: dep.path, symbol: dep.symbol, key, name: queryName(dep.symbol) });
    }
    return next;
  }

  /** Records a use by name of one of `named` (linked ones preferred; see below for unlinked). */
  private nameEdge(ref: GraphReference, named: readonly Def[], depth: number): void {
    if (ref.symbol !== null && this.visited.has(nodeKey(ref.path, ref.symbol))) return;
    const defs = named.filter((d) => !(d.path === ref.path && d.symbol === ref.symbol));
    if (defs.length === 0) return;
    const linked = defs.filter((d) => this.linkedTo(ref, d));
    // An identifier of the same name in a file that does not import the definer is another
    // thing far more often than a use; an unlinked call is kept (calls through an object).
    if (linked.length === 0 && ref.kind !== 'call') return;
    this.record(ref, depth, linked.length > 0 ? linked : defs, linked.length > 0);
  }

  /** Files importing a frontier file that have no dependent yet join, file-level. */
  private async importEdges(frontier: readonly Def[], depth: number) {
    const files = [...new Set(frontier.map((d) => d.path))];
    const reached = new Set([...this.found.values()].map((d) => d.path));
    for (const imp of await this.graph.importersOf(files)) {
      if (reached.has(imp.path) && !this.found.has(nodeKey(imp.path, null))) continue;
      const defs = frontier.filter((d) => importNames(imp.path, imp.name, d.path));
      this.record(imp, depth, defs, true);
    }
  }

  /** The user's file is the definer's, in its package, or imports it or a barrel of it. */
  private linkedTo(ref: GraphReference, def: Def): boolean {
    if (ref.path === def.path || samePackage(ref.path, def.path)) return true;
    const via = this.exporters.get(def.path) ?? [def.path];
    const specs = this.imports.get(ref.path) ?? [];
    return specs.some((spec) => via.some((file) => importNames(ref.path, spec, file)));
  }

  private record(ref: GraphReference, depth: number, defs: readonly Def[], linked: boolean) {
    const key = nodeKey(ref.path, ref.symbol);
    let dep = this.found.get(key);
    if (dep === undefined) {
      if (this.found.size >= this.maxDependents) {
        this.truncated = true;
        return null;
      }
      const test = isTestPath(ref.path);
      dep = { path: ref.path, symbol: ref.symbol, depth, via: ref.kind, uses: [], linked, test };
      this.found.set(key, dep);
    } else if (dep.depth === depth) {
      if (RANK[ref.kind] > RANK[dep.via]) dep.via = ref.kind;
      dep.linked ||= linked;
    } else return null;
    for (const def of defs) {
      if (!dep.uses.includes(def.symbol) && dep.uses.length < 5) dep.uses.push(def.symbol);
      if (depth === 1) this.referenced.add(def.key);
    }
    return dep;
  }
}

/** Walks the graph from the seeds; see the file comment for what an edge is. */
export async function walkDependents(
  graph: ReferenceGraph,
  seeds: readonly SymbolChange[],
  options: WalkOptions,
): Promise<WalkResult> {
  const walk = new DependentWalk(graph, options.maxDependents);
  let frontier = walk.seed(seeds, options.renamed);
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    frontier = await walk.step(frontier, depth);
  }
  const dependents = [...walk.found.values()].sort(
    (a, b) =>
      a.depth - b.depth ||
      a.path.localeCompare(b.path) ||
      (a.symbol ?? '').localeCompare(b.symbol ?? ''),
  );
  const { referenced, truncated } = walk;
  return { dependents, files: filesOf(dependents), referenced, truncated };
}

function filesOf(dependents: readonly ImpactDependent[]): ImpactFile[] {
  const files = new Map<string, ImpactFile>();
  for (const d of dependents) {
    const file = files.get(d.path);
    if (file === undefined)
      files.set(d.path, { path: d.path, dependents: 1, depth: d.depth, test: d.test });
    else {
      file.dependents++;
      file.depth = Math.min(file.depth, d.depth);
    }
  }
  return [...files.values()].sort((a, b) => a.depth - b.depth || a.path.localeCompare(b.path));
}

/**
 * Compares the graph's copy of each changed file with the target's content (sha256): a
 * missing or different copy, or a copy of a file the target removed, makes the graph stale.
 */
export async function staleness(
  graph: ReferenceGraph,
  targetHashes: Map<string, string | null>,
): Promise<GraphFreshness> {
  const held = await graph.contentHashes([...targetHashes.keys()]);
  const staleFiles: string[] = [];
  for (const [path, hash] of targetHashes) {
    const copy = held.get(path);
    if (hash === null ? copy !== undefined : copy !== hash) staleFiles.push(path);
  }
  return {
    stale: staleFiles.length > 0,
    staleFiles: staleFiles.slice(0, 20),
    checkedFiles: targetHashes.size,
  };
}
