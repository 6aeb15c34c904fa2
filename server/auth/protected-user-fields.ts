// The user fields no profile edit may change (issue 3: never role, ban state, verification, license
// fields; the e-mail and password have their own flows). Clients send the whole user object back
// (docs/product/api.md), so a field equal to its stored value is an echo, not an attempt, and passes.
import type { User } from '../db/schema.ts';

/** Fields compared with the stored value: sending them unchanged is fine. */
const ECHOABLE_FIELDS = [
  'role',
  'is_banned',
  'email_verified_at',
  'license',
  'license_request',
  'license_granted',
  'email',
  'unsubscribed_at',
  'two_factor_enabled_at',
] as const satisfies readonly (keyof User)[];
/** Fields never part of the public user object: sending them at all is an attempt. */
const SECRET_FIELDS = ['password', 'password_hash', 'password_confirmation'] as const;

/** null, undefined and '' all mean "empty"; booleans are the 0/1 the database keeps; numeric strings compare as numbers. */
function normalize(value: unknown, stored: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof stored === 'number' && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** Names of the protected fields that `body` would change on `user` (empty when there are none). */
export function findProtectedChanges(body: unknown, user: User): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const sent = body as Record<string, unknown>;
  const changed: string[] = [];
  for (const field of SECRET_FIELDS) if (field in sent && sent[field] !== undefined && sent[field] !== null && sent[field] !== '') changed.push(field);
  for (const field of ECHOABLE_FIELDS) {
    if (!(field in sent) || sent[field] === undefined) continue;
    const stored = user[field];
    let value = normalize(sent[field], stored);
    let current = normalize(stored, stored);
    // The unique index compares e-mails case-insensitively; so does this.
    if (field === 'email' && typeof value === 'string' && typeof current === 'string') [value, current] = [value.trim().toLowerCase(), current.toLowerCase()];
    if (value !== current) changed.push(field);
  }
  return changed;
}
