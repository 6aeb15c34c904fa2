// Recovery codes (docs/product/accounts.md#two-factor-sign-in): ten per user, shown once, each good for one
// sign-in. 80 random bits each, so a plain SHA-256 is enough to store them: unlike a password there is no
// guessable space to search, and a fast hash lets a code be found by one indexed lookup instead of ten
// argon2 runs per attempt (docs/decisions/0023-two-factor-sign-in.md).
import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
// Crockford's base32 without I, L, O, U: no letters that read as digits or each other.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUPS = 4;
const GROUP_LENGTH = 4;

/** One code as shown: four groups of four characters, e.g. `7f3k-q9m2-x4td-8hbn` (16 × 5 = 80 bits). */
export function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let group = 0; group < GROUPS; group += 1) {
    let text = '';
    for (let index = 0; index < GROUP_LENGTH; index += 1) text += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(text);
  }
  return groups.join('-');
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** What the user typed, as stored: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(input: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(input)).digest('hex');
}
