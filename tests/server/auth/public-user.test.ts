// The user object sent to clients never carries the password hash or session data.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_USER_FIELDS, toPublicUser } from '../../../server/auth/public-user.ts';
import { sessions } from '../../../server/db/schema.ts';
import { createClient, createUser } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

describe('public user', () => {
  it('keeps every documented user field and drops the hash and unsubscribe internals', async () => {
    const user = await createUser(ctx, { email: 'pat@example.test' });
    const publicUser = toPublicUser({ ...user, unsubscribed_at: '2026-01-01T00:00:00.000Z' });
    const specFields = [
      'id',
      'name',
      'surname',
      'companyName',
      'email',
      'email_verified_at',
      'address',
      'postcode',
      'county',
      'country',
      'phone',
      'vat',
      'license',
      'license_request',
      'license_granted',
      'is_banned',
      'role',
      'two_factor_enabled_at',
      'created_at',
      'updated_at',
    ];
    expect(Object.keys(publicUser).sort()).toEqual(specFields.sort());
    expect([...PUBLIC_USER_FIELDS].sort()).toEqual(specFields.sort());
    expect(publicUser).not.toHaveProperty('password_hash');
    expect(publicUser).not.toHaveProperty('unsubscribed_at');
  });

  it('never appears with the hash or session data in the login and /api/user answers', async () => {
    const user = await createUser(ctx, { email: 'pat@example.test' });
    // The raw client, not login(): the test reads the login answer's text itself.
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const loginAnswer = await client.request('POST', '/api/auth/login', {
      email: 'pat@example.test',
      password: 'correct horse battery staple',
      g_token: await solveBotChallenge(ctx.app),
    });
    expect(loginAnswer.status).toBe(200);
    const meAnswer = await client.request('GET', '/api/user');
    expect(meAnswer.status).toBe(200);
    const [session] = ctx.db.select().from(sessions).all();
    const token = client.cookies.get('session');
    expect(session).toBeDefined();
    expect(token).toBeDefined();
    for (const text of [await loginAnswer.text(), await meAnswer.text()]) {
      expect(text).toContain('pat@example.test');
      expect(text).not.toContain(user.password_hash);
      expect(text).not.toContain('$argon2');
      expect(text).not.toMatch(/password|unsubscribed|session/i);
      expect(text).not.toContain(session?.id ?? '<no session>');
      expect(text).not.toContain(token ?? '<no token>');
    }
  });
});
