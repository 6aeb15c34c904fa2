// License keys: readable, unambiguous, 150 random bits, unique; older licenses get one at start.
import { isNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertLicense } from '../../../../server/features/licensing/queries.ts';
import { licenses, licenseTypes } from '../../../../server/db/schema.ts';
import { backfillLicenseKeys, generateLicenseKey, LICENSE_KEY_PATTERN, normaliseLicenseKey } from '../../../../server/auth/license-keys.ts';
import { createUser } from '../../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
afterEach(() => ctx?.cleanup());

describe('license keys', () => {
  it('look like DCTL-XXXXX-… in Crockford base 32 and do not repeat', () => {
    const keys = Array.from({ length: 2000 }, generateLicenseKey);
    for (const key of keys) expect(key).toMatch(LICENSE_KEY_PATTERN);
    expect(keys[0]).toMatch(/^DCTL(-[0-9A-HJKMNP-TV-Z]{5}){6}$/);
    expect(new Set(keys).size).toBe(keys.length);
    // Every character of the alphabet turns up: nothing is stuck.
    expect(new Set(keys.join('').replace(/DCTL|-/g, '')).size).toBe(32);
  });

  it('read typed input as the stored key (case, spaces, O/I/L) and refuse what cannot be a key', () => {
    const key = generateLicenseKey();
    expect(normaliseLicenseKey(`  ${key.toLowerCase()} `)).toBe(key);
    expect(normaliseLicenseKey(key.replace(/0/g, 'O').replace(/1/g, 'l'))).toBe(key);
    for (const bad of ['', 'DCTL', `${key}-AAAAA`, key.replace('DCTL', 'ABCD'), key.slice(0, -1), key.replace(/-/g, '')])
      expect(normaliseLicenseKey(bad)).toBeNull();
  });

  it('are given to every new license, and at start to licenses made before keys existed', async () => {
    ctx = createTestContext();
    const user = await createUser(ctx, { email: 'keys@example.com' });
    const type = ctx.db.insert(licenseTypes).values({ name: 'trial-keys' }).returning().get();
    const made = insertLicense(ctx.db, { license_type_id: type.id, user_id: user.id });
    expect(made.key).toMatch(LICENSE_KEY_PATTERN);
    // Two licenses as an older version left them: no key.
    ctx.db.insert(licenses).values({ license_type_id: type.id, user_id: user.id, key: null }).run();
    ctx.db.insert(licenses).values({ license_type_id: type.id, user_id: user.id, key: null }).run();
    expect(backfillLicenseKeys(ctx.db)).toBe(2);
    expect(ctx.db.select().from(licenses).where(isNull(licenses.key)).all()).toEqual([]);
    const keys = ctx.db
      .select({ key: licenses.key })
      .from(licenses)
      .all()
      .map((row) => row.key);
    expect(new Set(keys).size).toBe(3);
    expect(backfillLicenseKeys(ctx.db)).toBe(0);
  });
});
