// The password rules of registration and the reset form (issue 3): at least 8 characters, up to 128
// (above the "at least 64" floor, and a bound on the argon2 input), confirmation matching, and none of the
// most common passwords. Messages follow Laravel's, which the spec's client was written against.
import { commonPasswordList } from '../lazy-libraries.ts';
import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  required: 'The password field is required.',
  min: `The password field must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  max: `The password field must not be greater than ${PASSWORD_MAX_LENGTH} characters.`,
  confirmation: 'The password field confirmation does not match.',
  common: 'This password is too common. Please choose another one.',
} as const;

// ~49k entries, most frequent first, all lower case (zxcvbn-ts, MIT). Loaded and built on first use, so
// processes that never check a password do not hold the list or the set.
let commonPasswords: Set<string> | undefined;

/** Case-insensitive: `Password1` is no better than `password1` against a guessing attack. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(commonPasswordList());
  return commonPasswords.has(password.toLowerCase());
}

/** The password field alone (no trimming: spaces are part of a password). */
export const passwordField = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, PASSWORD_MESSAGES.required)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.min)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.max)
  .refine((password) => !isCommonPassword(password), PASSWORD_MESSAGES.common);

/**
 * Adds the confirmation rule to an object schema holding `password` and `password_confirmation`. Like
 * Laravel's `confirmed`, a mismatch is reported on `password`, after the field's own messages, so the first
 * message stays the most basic problem. It runs even when other fields failed, so every field reports at once.
 */
export function withPasswordConfirmation<Shape extends { password: z.ZodType; password_confirmation: z.ZodType }>(schema: z.ZodObject<Shape>) {
  return schema.superRefine((value, issues) => {
    const { password, password_confirmation: confirmation } = value as { password: unknown; password_confirmation: unknown };
    if (typeof password === 'string' && password !== confirmation) {
      issues.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_MESSAGES.confirmation });
    }
  });
}

/**
 * `password_confirmation` takes any value: its only rule is equality with `password`, reported on
 * `password` as Laravel does, so the form never shows a separate type error for it.
 */
export const passwordConfirmationField = z.unknown().optional();
