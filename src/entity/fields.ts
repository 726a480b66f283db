// Field builders for the resource registries: ids, names, free text, enums, integers and
// string lists, each a FieldSpec whose zod messages name the field as the caller wrote it.
import { z } from 'zod';

import { idText } from '../activity/sessions/index.js';
import type { FieldSpec } from './model.js';

type Options = Omit<FieldSpec, 'schema' | 'column' | 'doc'>;

const textOf = (max: number) => (label: string) =>
  z
    .string({ error: () => `${label} must be a string` })
    .max(max, `${label} is longer than ${max} characters`);

/** An id of another row (`ref`: the resource keys it may name). */
export const ref = (targets: readonly string[], doc: string, o: Options = {}): FieldSpec => ({
  schema: idText,
  column: 'text',
  ref: targets,
  doc,
  ...o,
});

/** A board task id (checked to be a live task; linked, not copied). */
export const boardTask = (doc: string): FieldSpec => ({
  schema: idText,
  column: 'text',
  boardTask: true,
  doc,
});

/** A short single-line name or identifier. */
export const name = (doc: string, o: Options = {}): FieldSpec => ({
  schema: (label) =>
    idText(label).refine((v) => v.length <= 200, `${label} is longer than 200 characters`),
  column: 'text',
  doc,
  ...o,
});

/** Free text up to `max` characters. */
export const text = (doc: string, max = 8000, o: Options = {}): FieldSpec => ({
  schema: textOf(max),
  column: 'text',
  doc,
  ...o,
});

/** One of `values` (default `values[0]`). */
export const oneOf = (values: readonly [string, ...string[]], doc: string): FieldSpec => ({
  schema: (label) =>
    z.enum(values, { error: () => `${label} must be one of ${values.join(', ')}` }),
  column: 'text',
  default: values[0],
  doc: `${doc} (${values.join(' | ')}; default ${values[0]})`,
});

/** An integer in [min, max]. */
export const int = (doc: string, min: number, max: number, o: Options = {}): FieldSpec => ({
  schema: (label) =>
    z
      .number({ error: () => `${label} must be a number` })
      .int(`${label} must be an integer`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  column: 'int',
  doc,
  ...o,
});

/** A list of short strings (stored as JSON). */
export const strings = (doc: string, max = 50): FieldSpec => ({
  schema: (label) =>
    z
      .array(idText(`${label}[]`), { error: () => `${label} must be an array of strings` })
      .max(max, `${label}: at most ${max} entries`),
  column: 'json',
  default: '[]',
  doc,
});

/** Set by the engine only (never in `data`). */
export const system = (column: FieldSpec['column'], doc: string, o: Options = {}): FieldSpec => ({
  schema: () => z.never(),
  column,
  system: true,
  doc,
  ...o,
});
