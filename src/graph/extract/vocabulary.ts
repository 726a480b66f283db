// The closed predicate vocabulary of extracted facts and the zod schema every extracted triple
// passes before it is written: a pattern can only produce what this list names.
import { z } from 'zod';

/** Every predicate the extractor may emit (docs/servers/vault.md explains each). */
export const PREDICATES = [
  'adopted',
  'blocks',
  'caused_by',
  'created',
  'decided',
  'depends_on',
  'owns',
  'part_of',
  'replaced',
  'uses',
] as const;

export type Predicate = (typeof PREDICATES)[number];

/** The longest entity name kept; a longer phrase is not a name but a runaway match. */
export const MAX_NAME_LENGTH = 160;

const nameSchema = z.string().trim().min(1).max(MAX_NAME_LENGTH);

/** One extracted fact: a triple, the sentence it came from, and its ordinal in the document. */
export const extractedFactSchema = z.object({
  ordinal: z.number().int().nonnegative(),
  subject: nameSchema,
  subjectSlug: z.string().regex(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u),
  predicate: z.enum(PREDICATES),
  object: nameSchema,
  objectSlug: z.string().regex(/^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u),
  fact: z.string().min(1),
});

export type ExtractedFact = z.infer<typeof extractedFactSchema>;
