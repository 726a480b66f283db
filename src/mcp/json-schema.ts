// zod → JSON Schema for tools/list. Non-optional fields land in `required`; fields with
// defaults stay optional because we describe what a caller may send (the input side).
import { z } from 'zod';

export interface ToolInputSchema {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [key: string]: unknown;
}

/** Converts one tool's zod object schema to the JSON Schema object MCP expects. */
export function toInputSchema(schema: z.ZodType): ToolInputSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json['$schema'];
  if (json['type'] !== 'object') throw new Error('tool input schema must be an object');
  return json as ToolInputSchema;
}
