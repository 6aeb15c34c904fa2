// The reusable pieces behind the accounts routes: signed URLs, the banned-domain check, the password rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isCommonPassword, passwordField } from '../../../../server/auth/password-rules.ts';
import { signUrl, verifySignedUrl } from '../../../../server/auth/signed-urls.ts';
import { domainAndParents, isDomainBanned } from '../../../../server/features/banned-domains/queries.ts';
import { bannedDomains } from '../../../../server/db/schema.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true });
});
afterEach(() => ctx.cleanup());

describe('signUrl / verifySignedUrl', () => {
  it('accepts its own URL until the expiry, then reports it expired', () => {
    const path = signUrl(ctx, '/api/files/7', { expiresAt: ctx.now() + 1000, params: { name: 'a b&c' } });
    // Parameters sorted by name, encoded as a form encodes them, the signature last.
    expect(path).toMatch(/^\/api\/files\/7\?expires=\d+&name=a\+b%26c&signature=[0-9a-f]{64}$/);
    expect(verifySignedUrl(ctx, `http://any.host${path}`)).toBe('valid');
    ctx.advance(1000);
    expect(verifySignedUrl(ctx, path)).toBe('expired');
  });

  it('does not depend on parameter order, but on every parameter and the path', () => {
    const path = signUrl(ctx, '/x', { expiresAt: ctx.now() + 60_000, params: { a: '1', b: '2' } });
    const url = new URL(path, 'http://localhost');
    const reordered = new URL('/x', 'http://localhost');
    for (const key of ['signature', 'expires', 'b', 'a']) reordered.searchParams.set(key, url.searchParams.get(key) ?? '');
    expect(verifySignedUrl(ctx, reordered)).toBe('valid');
    expect(verifySignedUrl(ctx, path.replace('/x?', '/y?'))).toBe('invalid');
    expect(verifySignedUrl(ctx, path.replace('a=1', 'a=2'))).toBe('invalid');
    expect(verifySignedUrl(ctx, `${path}&c=3`)).toBe('invalid');
    expect(verifySignedUrl(ctx, path.replace(/&signature=.*/, ''))).toBe('invalid');
    expect(verifySignedUrl(ctx, path.replace(/signature=[0-9a-f]+/, 'signature=zz'))).toBe('invalid');
  });

  it('refuses URLs signed with another server’s secret', () => {
    const other = createTestContext({ fakeClock: true });
    try {
      const path = signUrl(other, '/x', { expiresAt: other.now() + 60_000 });
      expect(verifySignedUrl(ctx, path)).toBe('invalid');
    } finally {
      other.cleanup();
    }
  });
});

describe('isDomainBanned', () => {
  it('lists a domain and its parents, lower-cased, without a trailing dot', () => {
    expect(domainAndParents('Mail.Spam.COM.')).toEqual(['mail.spam.com', 'spam.com', 'com']);
    expect(domainAndParents('')).toEqual([]);
  });

  it('matches the domain or a parent, case-insensitively, but not a look-alike suffix', () => {
    ctx.db
      .insert(bannedDomains)
      .values([{ domain: 'SPAM.com' }, { domain: ' junk.example ' }])
      .run();
    expect(isDomainBanned(ctx.db, 'spam.com')).toBe(true);
    expect(isDomainBanned(ctx.db, 'a.b.Spam.Com')).toBe(true);
    expect(isDomainBanned(ctx.db, 'junk.example')).toBe(true);
    expect(isDomainBanned(ctx.db, 'notspam.com')).toBe(false);
    expect(isDomainBanned(ctx.db, 'spam.com.au')).toBe(false);
    expect(isDomainBanned(ctx.db, '')).toBe(false);
  });
});

describe('password rules', () => {
  it('knows the common passwords whatever their case, and not a long passphrase', () => {
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('PassWord1')).toBe(true);
    expect(isCommonPassword('plum-tractor-49-lantern')).toBe(false);
  });

  it('gives the Laravel messages, the most basic first', () => {
    const first = (value: unknown) => {
      const result = passwordField.safeParse(value);
      return result.success ? undefined : result.error.issues[0]?.message;
    };
    expect(first(undefined)).toBe('The password field is required.');
    expect(first('')).toBe('The password field is required.');
    expect(first('1234567')).toBe('The password field must be at least 8 characters.');
    expect(first('x'.repeat(129))).toBe('The password field must not be greater than 128 characters.');
    expect(first('football')).toBe('This password is too common. Please choose another one.');
    expect(first(' spaces count too ')).toBeUndefined();
  });
});
