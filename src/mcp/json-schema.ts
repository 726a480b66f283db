// zod → JSON Schema for tools/list. Non-optional fields land in `required`; fields with
// defaults stay optional because we describe what a caller may send (the input side). A field
// marked `.optional().meta({ required: true })` is advertised as required too: it parses when
// missing so the handler can answer with the spec's tool-error (`nick is required`).
import { z } from 'zod';

export interface ToolInputSchema {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [key: string]: unknown;
}

/** Keywords whose values are schemas (a map of them, a list of them, or one). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_ONES = ['items', 'additionalProperties', 'not'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Moves each `required: true` marker (zod metadata, merged into the property's schema) into its
 * object's `required` array, throughout the schema; a boolean `required` is not valid JSON
 * Schema, so none is left behind.
 */
function liftRequiredMarkers(schema: Json): void {
  const properties = schema['properties'];
  if (isObject(properties)) {
    const marked = Object.keys(properties).filter((k) => {
      const property = properties[k];
      return isObject(property) && property['required'] === true;
    });
    if (marked.length > 0) {
      const listed = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
      schema['required'] = [...new Set([...listed, ...marked])];
    }
  }
  if (typeof schema['required'] === 'boolean') delete schema['required'];
  const children = [
    ...SCHEMA_MAPS.flatMap((k) => (isObject(schema[k]) ? Object.values(schema[k]) : [])),
    ...SCHEMA_LISTS.flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [])),
    ...SCHEMA_ONES.map((k) => schema[k]),
  ];
  for (const child of children) if (isObject(child)) liftRequiredMarkers(child);
}

/** Converts one tool's zod object schema to the JSON Schema object MCP expects. */
export function toInputSchema(schema: z.ZodType): ToolInputSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  delete json['$schema'];
  if (json['type'] !== 'object') throw new Error('tool input schema must be an object');
  liftRequiredMarkers(json);
  return json as ToolInputSchema;
}
