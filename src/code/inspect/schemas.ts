// One zod schema per validate-family tool input (field names exactly as the spec spells them:
// scope, path, rules, category). Shape only; unknown rule ids are refused by selectRules,
// paths by the allowed-roots check.
import { z } from 'zod';

import { RULE_CATEGORIES } from '../rules/index.js';

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

const path = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'path is required (a file or a directory)'
        : 'path must be a string',
  })
  .min(1, last('path must be a non-empty string'))
  .max(4096, last('path is longer than 4096 characters'))
  .refine((v) => v.trim() !== '', 'path must not be blank');

const rules = z
  .array(z.string().min(1, 'rule ids must be non-empty strings').max(100, 'a rule id is too long'))
  .max(100, 'at most 100 rule ids');

const category = z.enum(RULE_CATEGORIES, {
  error: () => `unknown rule category (known: ${RULE_CATEGORIES.join(', ')})`,
});

export const validateCodeInput = z.object({
  scope: z
    .enum(['file', 'project'], { error: () => 'scope must be "file" or "project"' })
    .optional(),
  path,
  rules: rules.optional(),
  category: category.optional(),
});

export const analyzeCodeInput = z.object({ path });

export const listRulesInput = z.object({
  rules: rules.optional(),
  category: category.optional(),
});
