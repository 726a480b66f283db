// One zod schema per tasks-tool input, next to the board they serve. The same schemas drive
// the MCP inputSchema, REST validation and CLI parsing. Field names follow the spec exactly.
import { z } from 'zod';

import { AUTHOR_TYPES, TASK_STATUSES } from './model.js';

/** Bounds that keep hostile input from bloating the store. */
export const LIMITS = { id: 200, title: 1000, text: 65_536 } as const;

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

// Blank (whitespace-only) ids and titles are refused: an agent named "  " reads as nobody.
const id = (what: string) =>
  z
    .string()
    .min(1, last(`${what} must be a non-empty string`))
    .max(LIMITS.id, last(`${what} is longer than ${LIMITS.id} characters`))
    .refine((v) => v.trim() !== '', `${what} must not be blank`);
const title = z
  .string()
  .min(1, last('title must be a non-empty string'))
  .max(LIMITS.title, last(`title is longer than ${LIMITS.title} characters`))
  .refine((v) => v.trim() !== '', 'title must not be blank');
// The character cap (cheap) bounds the work; the byte cap is the rule. Same text, said once.
const text = (what: string) =>
  z
    .string()
    .max(LIMITS.text, last(`${what} is larger than 64 KiB`))
    .refine((v) => Buffer.byteLength(v, 'utf8') <= LIMITS.text, `${what} is larger than 64 KiB`);
const status = z.enum(TASK_STATUSES);
const priority = z.number().int().min(-1_000_000).max(1_000_000);

export const listTasksInput = z.object({
  teamId: id('teamId').optional(),
  status: status.optional(),
  ready: z.boolean().optional(),
});

export const taskIdInput = z.object({ taskId: id('taskId') });

export const createTaskInput = z.object({
  title,
  description: text('description').optional(),
  status: status.optional(),
  priority: priority.optional(),
  teamId: id('teamId').optional(),
  parentTaskId: id('parentTaskId').optional(),
  assigneeRuntime: id('assigneeRuntime').optional(),
});

export const createSubtaskInput = z.object({
  parentTaskId: id('parentTaskId'),
  title,
  description: text('description').optional(),
});

export const claimTaskInput = z.object({
  taskId: id('taskId'),
  assigneeAgentId: id('assigneeAgentId'),
  assigneeRuntime: id('assigneeRuntime').optional(),
});

export const updateTaskStatusInput = z.object({ taskId: id('taskId'), status });

export const addCommentInput = z.object({
  taskId: id('taskId'),
  body: text('body').min(1, 'body must be a non-empty string'),
  authorAgentId: id('authorAgentId').optional(),
  authorType: z.enum(AUTHOR_TYPES).optional(),
});

export const linkTaskInput = z.object({
  taskId: id('taskId'),
  dependsOnTaskId: id('dependsOnTaskId'),
});

export const claimNextReadyInput = z.object({
  assigneeAgentId: id('assigneeAgentId'),
  teamId: id('teamId').optional(),
  assigneeRuntime: id('assigneeRuntime').optional(),
});

export const renewClaimInput = z.object({
  taskId: id('taskId'),
  assigneeAgentId: id('assigneeAgentId'),
});
