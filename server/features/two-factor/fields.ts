// The fields of the two-factor calls (docs/product/messages.md#two-factor-sign-in), shared by the login's
// second step and the dashboard's calls.
import { z } from 'zod';
import { required } from '../../http/fields.ts';

export const CODE_FORMAT_MESSAGE = 'The code must be the 6 digits your authenticator app shows.';

/** Six digits; spaces (apps show "123 456") are ignored. */
export const codeField = z
  .string({ error: required('code') })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, required('code'))
      .regex(/^\d{6}$/, CODE_FORMAT_MESSAGE),
  );

/** A code from the app or a recovery code (disable and regenerate accept either, for a lost phone). */
export const codeOrRecoveryCodeField = z
  .string({ error: required('code') })
  .trim()
  .min(1, required('code'))
  .max(64, 'The code field must not be greater than 64 characters.')
  .transform((value) => (/^[\d\s]+$/.test(value) ? value.replace(/\s/g, '') : value));

export const passwordField = z
  .string({ error: required('password') })
  .min(1, required('password'))
  .max(1024, 'The password field must not be greater than 1024 characters.');
