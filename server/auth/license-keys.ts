// License keys (docs/licensing.md): what a customer types into the company's software. `DCTL-` and six
// groups of five characters of Crockford's base 32 (no I, L, O or U, so nothing reads ambiguously):
// 30 characters of 5 random bits each, 150 bits, far beyond guessing. Keys are stored as they are shown
// (the owner and the admins see them again); they are never logged.
import { hash, randomBytes } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import { createBoundedCache } from '../../common/bounded-cache.ts';
import { writeTransaction, type Db } from '../db/client.ts';
import { licenses } from '../db/schema.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PREFIX = 'DCTL';
const GROUPS = 6;
const GROUP_LENGTH = 5;

export const LICENSE_KEY_PATTERN = new RegExp(`^${PREFIX}(-[${ALPHABET}]{${GROUP_LENGTH}}){${GROUPS}}$`);

export function generateLicenseKey(): string {
  const bytes = randomBytes(GROUPS * GROUP_LENGTH);
  // 256 is a multiple of 32, so taking each byte modulo 32 keeps every character equally likely.
  const characters = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
  const groups = Array.from({ length: GROUPS }, (_, i) => characters.slice(i * GROUP_LENGTH, (i + 1) * GROUP_LENGTH));
  return [PREFIX, ...groups].join('-');
}

/**
 * What a person or program typed, in the stored form: upper case, surrounding space trimmed, and the
 * letters a reader confuses mapped as Crockford's base 32 does (O → 0, I and L → 1). Null when it cannot be
 * a key at all, so malformed input never reaches the database.
 */
export function normaliseLicenseKey(input: string): string | null {
  // What the software sends nearly always: a key exactly as it was shown.
  if (LICENSE_KEY_PATTERN.test(input)) return input;
  const key = input.trim().toUpperCase();
  const [prefix, ...groups] = key.split('-');
  if (prefix !== PREFIX) return null;
  const normalised = [prefix, ...groups.map((group) => group.replace(/O/g, '0').replace(/[IL]/g, '1'))].join('-');
  return LICENSE_KEY_PATTERN.test(normalised) ? normalised : null;
}

/**
 * Gives every license that has no key one (licenses made before keys existed: migration 0003 added the
 * column). Runs at every start, in one transaction; a no-op once all have keys.
 */
export function backfillLicenseKeys(db: Db): number {
  return writeTransaction(db, () => {
    const missing = db.select({ id: licenses.id }).from(licenses).where(isNull(licenses.key)).all();
    for (const { id } of missing) db.update(licenses).set({ key: generateLicenseKey() }).where(eq(licenses.id, id)).run();
    return missing.length;
  });
}

const bucketOf = (key: string): string => hash('sha256', normaliseLicenseKey(key) ?? key.trim().toUpperCase(), 'base64url');
// The software of one customer sends its key with every check, so the same few keys come back over and
// over: a hash per call held 1.6% of a heartbeat's CPU profile (docs/engineering.md#speed-notes). Kept in
// this process's memory only, like the licenses the lookups read; bounded, since the text comes from outside.
const keyBuckets = createBoundedCache<string, string>(4096);

/**
 * A rate-limit key for a license key (the licensing and update APIs count calls per key): its hash, so no key
 * is stored outside the licenses table. Hashed in the form the lookup reads (normaliseLicenseKey: O → 0, I and
 * L → 1), so respelling one key is not a fresh bucket (issue 29, item 3); text that cannot be a key is counted
 * by its trimmed capitals.
 */
export function licenseKeyBucket(key: string): string {
  return keyBuckets.get(key, bucketOf);
}
