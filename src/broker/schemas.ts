// One zod schema per builtin tool input (field names exactly as the spec spells them), plus
// the inputs the approvals and audit surfaces (CLI, REST) parse with.
import { z } from 'zod';

import { APPROVAL_DECISIONS, APPROVAL_STATUSES, GRANT_STATUSES } from './model.js';

/** Bounds that keep hostile input from bloating the store or the scan. */
export const TOOL_LIMITS = { message: 65_536, note: 8_192, query: 2_000, path: 4_096 } as const;

const text = (what: string, max: number, min = 0) =>
  z
    .string()
    .min(min, `${what} must be a non-empty string`)
    .max(max, `${what} is longer than ${max} characters`);

export const echoInput = z.object({ message: text('message', TOOL_LIMITS.message) });
export const noteInput = z.object({ note: text('note', TOOL_LIMITS.note, 1) });
/** `limit` is any positive integer here; the broker's numeric cap (20) refuses larger ones. */
export const webSearchInput = z.object({
  query: text('query', TOOL_LIMITS.query, 1),
  limit: z.number().int('limit must be an integer').min(1, 'limit must be at least 1').optional(),
});
export const deletePathInput = z.object({ path: text('path', TOOL_LIMITS.path, 1) });

const ms = z.coerce.number().int().min(0);

/** Filters for paging the audit log (query string or CLI flags; numbers may be strings). */
export const auditQueryInput = z.object({
  tool: z.string().min(1).max(200).optional(),
  caller: z.string().min(1).max(200).optional(),
  outcome: z.string().min(1).max(64).optional(),
  step: z.string().min(1).max(64).optional(),
  callId: z.string().min(1).max(200).optional(),
  since: ms.optional(),
  until: ms.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.coerce.number().int().min(1).optional(),
});

export const approvalListInput = z.object({
  status: z.enum([...APPROVAL_STATUSES, 'all']).default('pending'),
  /** Only approvals linked to this board task. */
  taskId: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

/** An expiry as epoch ms or an ISO 8601 date (REST bodies, CLI flags). */
const instant = z.union([
  z.number().int().min(0),
  z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date or epoch ms')
    .transform((v) => Date.parse(v)),
]);

export const approvalDecisionInput = z.object({
  decision: z.enum(APPROVAL_DECISIONS),
  decidedBy: z.string().min(1).max(200).optional(),
  /** allow_always only: when the grant stops applying; absent or null: until revoked. */
  expiresAt: instant.nullish(),
});

export const grantListInput = z.object({
  status: z.enum([...GRANT_STATUSES, 'all']).default('active'),
  principal: z.string().min(1).max(200).optional(),
  tool: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
