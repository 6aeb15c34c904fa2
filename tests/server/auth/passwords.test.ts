import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyAgainstDummyHash, verifyPassword } from '../../../server/auth/passwords.ts';

describe('passwords', () => {
  it('hash with argon2id at m=19456, t=2, p=1 and verify', async () => {
    const hash = await hashPassword('s3cret pass');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(parseOptions(hash)).toMatchObject({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(hash, 's3cret pass')).toBe(true);
    expect(await verifyPassword(hash, 'S3cret pass')).toBe(false);
    expect(await hashPassword('s3cret pass')).not.toBe(hash); // salted
  });

  it('treats a malformed stored hash as a mismatch', async () => {
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  it('the dummy verification always fails', async () => {
    expect(await verifyAgainstDummyHash('dummy password that no account ever has')).toBe(false);
  });
});
