// What every tool surface does to arguments before and after its zod schema: a `null` for an
// optional field means "not given" (many models send one), and a failed parse is described
// once per problem, naming the field. Pure: no I/O, no protocol types.
import { z } from 'zod';

/** How many problems a description names at most (the rest are left for the next try). */
const MAX_PROBLEMS = 5;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema beneath optional/nullable/default/readonly/catch wrappers and a pipe's input. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let depth = 0; depth < 32; depth++) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodReadonly ||
      current instanceof z.ZodCatch
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

/** True when `null` for this field should read as "not given": it may be absent, not null. */
const nullMeansAbsent = (field: z.ZodType): boolean =>
  field.safeParse(undefined).success && !field.safeParse(null).success;

/**
 * `args` with every `null` removed whose field is optional and does not itself accept null,
 * in the top-level object and in nested objects (also inside arrays) the schema describes.
 * Free-form values (`z.record`, `z.unknown`) are left as sent. A copy; `args` is not changed.
 */
export function dropNullOptionals(schema: z.ZodType, args: unknown): unknown {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(args)) {
    const element = inner.element as z.ZodType;
    return args.map((item: unknown) => dropNullOptionals(element, item));
  }
  if (!(inner instanceof z.ZodObject) || !isPlainObject(args)) return args;
  const shape = inner.shape as Record<string, z.ZodType>;
  const kept: [string, unknown][] = [];
  for (const [key, value] of Object.entries(args)) {
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (field === undefined) kept.push([key, value]);
    else if (value === null && nullMeansAbsent(field)) continue;
    else kept.push([key, dropNullOptionals(field, value)]);
  }
  // fromEntries defines own properties, so a `__proto__` key stays a key.
  return Object.fromEntries(kept);
}

/**
 * `field: problem; …` for a failed parse, each distinct problem once (zod may report the same
 * field and message twice), at most five. A problem with the arguments as a whole is named
 * `(arguments)`.
 */
export function describeIssues(error: z.ZodError): string {
  const parts = new Set<string>();
  for (const issue of error.issues) {
    const path = issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.');
    parts.add(`${path}: ${issue.message}`);
    if (parts.size === MAX_PROBLEMS) break;
  }
  return [...parts].join('; ');
}
