import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/lib/api/request.ts';
import { CONNECTION_ERROR, firstFieldErrors, generalMessage } from '../../../../src/islands/ui/form-errors.ts';

describe('form errors from an API answer', () => {
  const error = new ApiError(422, {
    message: 'The email field must be a valid email address.',
    errors: { email: ['The email field must be a valid email address.', 'second'], name: ['The name field is required.'], g_token: ['x'] },
  });

  it('keeps the first message of each field the form shows (docs/product/messages.md#validation)', () => {
    expect(firstFieldErrors(error, ['name', 'email'])).toEqual({
      name: 'The name field is required.',
      email: 'The email field must be a valid email address.',
    });
  });

  it('drops the general message when a shown field already says it, keeps it otherwise', () => {
    expect(generalMessage(error, firstFieldErrors(error, ['name', 'email']))).toBeUndefined();
    expect(generalMessage(error, firstFieldErrors(error, ['name']))).toBe('The email field must be a valid email address.');
    expect(generalMessage(new ApiError(429, { message: 'Too many requests.' }), {})).toBe('Too many requests.');
  });

  it('says the server could not be reached for failures without an answer', () => {
    expect(firstFieldErrors(new TypeError('Failed to fetch'), ['email'])).toEqual({});
    expect(generalMessage(new TypeError('Failed to fetch'), {})).toBe(CONNECTION_ERROR);
  });
});
