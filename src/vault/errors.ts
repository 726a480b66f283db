// The vault's typed refusals: an unknown vault (listing the names there are), a restricted path
// (naming it), a document that is not there or not live, a reserved collection name.
import { DomainError, InvalidInputError, NotFoundError, PolicyError } from '../shared/errors.js';

/** The vault name is neither configured nor synced; the message lists the available names. */
export class VaultUnknownError extends DomainError {
  readonly available: readonly string[];

  constructor(name: string, available: readonly string[]) {
    super(
      'vault_unknown',
      `unknown vault "${name}"; available: ${available.length === 0 ? '(none)' : available.join(', ')}`,
    );
    this.available = available;
  }
}

/** A sync was asked to read a sensitive location (after resolving symlinks). */
export class VaultRestrictedPathError extends PolicyError {
  readonly path: string;

  constructor(path: string, rule: string) {
    super(`restricted path refused: ${path} (${rule})`, 'restricted_path');
    this.path = path;
  }
}

/** No live document answers to the path or docid in this vault. */
export class VaultDocumentNotFoundError extends NotFoundError {}

/**
 * The content root is missing or not a directory, a name is reserved, a glob is malformed. A
 * message that already opens with its field (`content_root: …`) keeps it, and the field is not
 * repeated by the mapper (`invalid args: content_root: …`, said once).
 */
export class VaultInputError extends InvalidInputError {
  constructor(message: string, field?: string) {
    super(message, field !== undefined && message.startsWith(`${field}: `) ? undefined : field);
  }
}

/** A vault environment variable (CAIRN_VAULT_EXPANSION, CAIRN_VAULT_WATCH, …) is unusable. */
export class VaultConfigError extends DomainError {
  /** The offending variable, e.g. `CAIRN_VAULT_RERANK`. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('invalid_config', `${variable} ${message}`);
    this.variable = variable;
  }
}
