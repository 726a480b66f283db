// Embedding failures and configuration mistakes. Messages name the provider and the URL, never
// a credential: callers log them and may show them to agents.
import { DomainError } from '../shared/errors.js';

/** Why an embed call failed; callers typically fall back to full-text search on any of them. */
export type EmbedFailure =
  /** The request outlived its deadline. */
  | 'timeout'
  /** The server could not be reached (refused, reset, DNS). */
  | 'unreachable'
  /** The server answered with an error status. */
  | 'http'
  /** The answer did not have the documented shape, count or dimensions. */
  | 'malformed'
  /** The local model could not be loaded or crashed, or the embedder was closed. */
  | 'unavailable';

/** An embed call failed. `reason` is machine-readable; `status` is the HTTP status, if any. */
export class EmbedError extends DomainError {
  readonly reason: EmbedFailure;
  readonly status: number | undefined;

  constructor(
    reason: EmbedFailure,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(
      'embed_failed',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = reason;
    this.status = options?.status;
  }
}

/** An embedding environment variable holds a value we cannot use. */
export class EmbedConfigError extends DomainError {
  /** The offending environment variable, e.g. `CAIRN_EMBEDDINGS`. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('invalid_config', `${variable} ${message}`);
    this.variable = variable;
  }
}
