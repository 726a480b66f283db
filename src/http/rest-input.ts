// What the dashboard's REST routes share: query parameters as an object, zod parsing to a 400
// naming the field, and domain errors as HTTP statuses with one JSON error shape.
import type { ServerResponse } from 'node:http';

import type { z } from 'zod';

import { DomainError, InvalidInputError, NotFoundError } from '../shared/errors.js';
import { HttpError, sendJson } from './respond.js';

/** `value` parsed with `schema`; HttpError 400 naming the first bad field otherwise. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const got = schema.safeParse(value);
  if (got.success) return got.data;
  const issue = got.error.issues[0];
  throw new HttpError(400, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

/** Query parameters as an object; `limit` as a number, empty values dropped. */
export function queryOf(url: URL): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of url.searchParams) {
    if (v !== '') out[k] = k === 'limit' ? Number(v) : v;
  }
  return out;
}

/** The HTTP status of an expected refusal, or undefined for a fault. */
export function statusOf(err: unknown): number | undefined {
  if (err instanceof HttpError) return err.status;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof InvalidInputError) return 400;
  if (err instanceof DomainError) return 409;
  return undefined;
}

/** Answers an expected refusal (true), or leaves a fault to the caller (false). */
export function sendRefusal(res: ServerResponse, err: unknown): boolean {
  const status = statusOf(err);
  if (status === undefined) return false;
  const error = status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'invalid';
  sendJson(res, status, { error, message: (err as Error).message });
  return true;
}
