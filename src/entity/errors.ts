// The refusals of the project and entity tools, each with a stable code and `_meta.denied`
// reason: a reference to a missing row or across parents, a delete others depend on, a
// dependency cycle, a release of something that is not a lease.
import { DomainError } from '../shared/index.js';
import { article } from './rows.js';

/** At most this many dependents are named per kind in a has_dependents refusal. */
export const DEPENDENTS_NAMED = 5;

/** `field` names an id no row of the referenced kinds has. */
export class MissingReferenceError extends DomainError {
  constructor(
    readonly field: string,
    kinds: readonly string[],
    readonly id: string,
  ) {
    super(
      'missing_reference',
      `${field}: no ${kinds.join(' or ')} has id ${id} (create it first, or check the id)`,
      { denied: 'missing_reference' },
    );
  }
}

/** A reference names a row of another parent (a branch of another repository). */
export class CrossParentError extends DomainError {
  constructor(message: string) {
    super('cross_parent', message, { denied: 'cross_parent' });
  }
}

/** One kind of row that depends on the one being deleted. */
export interface Dependents {
  resource: string;
  field: string;
  count: number;
  ids: string[];
}

/** Deleting a row others depend on: names up to DEPENDENTS_NAMED of each kind and the count. */
export class HasDependentsError extends DomainError {
  constructor(
    what: string,
    readonly dependents: readonly Dependents[],
  ) {
    const total = dependents.reduce((n, d) => n + d.count, 0);
    const kinds = dependents.map((d) => {
      const more = d.count > d.ids.length ? `, and ${d.count - d.ids.length} more` : '';
      return `${d.count} ${d.resource} (${d.field}): ${d.ids.join(', ')}${more}`;
    });
    super(
      'has_dependents',
      `${what} cannot be deleted: ${total} ${total === 1 ? 'row depends' : 'rows depend'} on it — ${kinds.join('; ')}. Delete or re-point them first.`,
      { denied: 'has_dependents' },
    );
  }
}

/** A dependency that would close a cycle; `cycle` lists it from the new edge back to itself. */
export class DependencyCycleError extends DomainError {
  constructor(readonly cycle: readonly string[]) {
    super(
      'cycle',
      `dependency refused: it would close a cycle ${cycle.join(' → ')} (each depends on the next)`,
      { denied: 'cycle' },
    );
  }
}

/** release on a resource that is not a lease. */
export class NotALeaseError extends DomainError {
  constructor(resource: string, leases: readonly string[]) {
    super(
      'not_a_lease',
      `release ends a lease, and ${article(resource)} is not one (release applies to: ${leases.join(', ')}); use delete to remove it`,
      { denied: 'not_a_lease' },
    );
  }
}
