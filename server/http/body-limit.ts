// Bodies of the small JSON forms (login, registration, reset, contact, profile) are a few hundred bytes;
// refusing anything far larger before parsing keeps a flood of big bodies cheap (docs/engineering.md#known-traps).
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from './errors.ts';

export function smallJsonBody(maxSize = 32 * 1024) {
  return bodyLimit({ maxSize, onError: (c) => errorResponse(c, 413, 'The request is too large.') });
}
