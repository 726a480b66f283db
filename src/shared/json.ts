// Reading JSON text stored in a column: an object, or `{}` for anything else (an array, a
// scalar, unreadable text). Pure; imports nothing.

/** A JSON column as an object (anything else, or unreadable text, as `{}`). */
export function jsonObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
