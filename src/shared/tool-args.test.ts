import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { describeIssues, dropNullOptionals } from './tool-args.js';

const schema = z.object({
  title: z.string(),
  note: z.string().optional(),
  limit: z.number().int().default(10),
  /** null has a meaning here: it must reach the schema. */
  clear: z.string().nullable().optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
  nested: z.object({ inner: z.string().optional(), must: z.string() }).optional(),
  items: z.array(z.object({ label: z.string().optional() })).optional(),
});

describe('dropNullOptionals', () => {
  it('drops null for optional and defaulted fields, keeps it for required and nullable ones', () => {
    const args = { title: null, note: null, limit: null, clear: null };
    expect(dropNullOptionals(schema, args)).toEqual({ title: null, clear: null });
    const parsed = schema.safeParse(
      dropNullOptionals(schema, { title: 't', note: null, limit: null }),
    );
    expect(parsed.data).toEqual({ title: 't', limit: 10 });
  });

  it('recurses into nested objects and arrays of objects, not into free-form records', () => {
    const args = {
      title: 't',
      nested: { inner: null, must: null },
      items: [{ label: null }, { label: 'x' }, null],
      payload: { keep: null },
    };
    expect(dropNullOptionals(schema, args)).toEqual({
      title: 't',
      nested: { must: null },
      items: [{}, { label: 'x' }, null],
      payload: { keep: null },
    });
  });

  it('leaves unknown keys, non-objects and the input itself alone', () => {
    const args = JSON.parse('{"title":"t","__proto__":null,"extra":null}') as Record<
      string,
      unknown
    >;
    const out = dropNullOptionals(schema, args) as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out['extra']).toBeNull();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(dropNullOptionals(schema, [1])).toEqual([1]);
    expect(dropNullOptionals(schema, 'x')).toBe('x');
    const original = { title: 't', note: null };
    dropNullOptionals(schema, original);
    expect(original).toEqual({ title: 't', note: null });
  });
});

describe('describeIssues', () => {
  it('names each field and problem once', () => {
    const twice = z
      .string()
      .max(3, 'x is too long')
      .refine((v) => v.length <= 3, 'x is too long');
    const r = z.object({ x: twice, y: z.number() }).safeParse({ x: 'abcd', y: 'no' });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(describeIssues(r.error)).toBe(
        'x: x is too long; y: Invalid input: expected number, received string',
      );
    }
  });

  it('names a problem with the whole arguments (arguments), and at most five', () => {
    const top = z.object({}).strict().safeParse({ a: 1 });
    expect(top.success).toBe(false);
    if (!top.success) expect(describeIssues(top.error)).toMatch(/^\(arguments\): /);
    const many = z.object(Object.fromEntries([...'abcdefg'].map((k) => [k, z.string()])));
    const r = many.safeParse({});
    expect(r.success).toBe(false);
    if (!r.success) expect(describeIssues(r.error).split('; ')).toHaveLength(5);
  });
});
