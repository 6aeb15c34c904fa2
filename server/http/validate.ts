// Validation at the edge: zod schemas through @hono/zod-validator, failing with 422 and per-field messages.
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { fieldErrorsFromZod, validationFailed } from './errors.ts';

export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return validationFailed(c, fieldErrorsFromZod(result.error as never));
  });
}
