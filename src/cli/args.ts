// What the command handlers share about their flags: the usage error (exit 2) and checking an
// integer flag's range. Parsing itself is built from the command table (program.ts).

/** Bad usage: printed as `cairn: <message>`, exit code 2. */
export class UsageError extends Error {}

/**
 * The integer value of a string flag, or undefined when the flag is absent.
 * @throws UsageError when it is not an integer from `min` to `max`.
 */
export function intFlag(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  return n;
}
