// toInputSchema: truly required fields and `required: true` markers both land in `required`,
// at any depth, and no boolean `required` (invalid JSON Schema) is left behind.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { toInputSchema } from './json-schema.js';

describe('toInputSchema', () => {
  it('lists non-optional fields as required and leaves defaults optional', () => {
    const schema = z.object({ a: z.string(), b: z.number().optional(), c: z.number().default(3) });
    expect(toInputSchema(schema)).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'number' },
        c: { type: 'number', default: 3 },
      },
      required: ['a'],
    });
  });

  it('advertises a field marked required: true, merged with the truly required ones', () => {
    const schema = z.object({
      id: z.string(),
      nick: z.string().optional().meta({ required: true }),
      note: z.string().optional(),
    });
    const json = toInputSchema(schema);
    expect(json.required).toEqual(['id', 'nick']);
    expect(json.properties?.['nick']).toEqual({ type: 'string' });
    // The schema still accepts a missing marked field: the handler refuses it with its own text.
    expect(schema.safeParse({ id: 'x' }).success).toBe(true);
  });

  it('honours a marker placed before .optional() and inside nested objects and arrays', () => {
    const schema = z.object({
      outer: z.string().meta({ required: true }).optional(),
      nested: z.object({ inner: z.number().optional().meta({ required: true }) }).optional(),
      list: z.array(z.object({ k: z.string().optional().meta({ required: true }) })).optional(),
    });
    const json = toInputSchema(schema);
    expect(json.required).toEqual(['outer']);
    expect(json.properties?.['nested']).toMatchObject({ required: ['inner'] });
    expect(json.properties?.['list']).toMatchObject({ items: { required: ['k'] } });
    expect(JSON.stringify(json)).not.toMatch(/"required":(true|false)/);
  });

  it('gives the same answer every time (the zod metadata is not consumed)', () => {
    const schema = z.object({ nick: z.string().optional().meta({ required: true }) });
    expect(toInputSchema(schema)).toEqual(toInputSchema(schema));
    expect(toInputSchema(schema).required).toEqual(['nick']);
  });

  it('refuses a schema that is not an object', () => {
    expect(() => toInputSchema(z.string())).toThrow('tool input schema must be an object');
  });
});
