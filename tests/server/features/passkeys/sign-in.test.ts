// Signing in with a passkey alone (docs/product/accounts.md#passkeys): the same answer, session and rules as the
// password login, checked with real assertions from the software authenticator.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passkeys, sessions, users } from '../../../../server/db/schema.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { waitForMailTo } from '../../../helpers/accounts.ts';
import { authenticatorFor, type SoftwareAuthenticator } from '../../../helpers/passkey-authenticator.ts';
import { addPasskey, signInOptions, signInWithPasskey } from '../../../helpers/passkeys.ts';
import { enrollTwoFactor } from '../../../helpers/two-factor.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const EMAIL = 'ann@example.test';

let ctx: TestContext;
let userId: number;
let authenticator: SoftwareAuthenticator;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  userId = (await createUser(ctx, { email: EMAIL, name: 'Ann' })).id;
  const ann = await login(ctx.app, EMAIL);
  authenticator = authenticatorFor(ctx.config.siteUrl);
  const added = await addPasskey(ann, authenticator);
  if (added.status !== 201) throw new Error(`adding the passkey answered ${added.status}`);
});
afterEach(() => ctx.cleanup());

const message = async (response: Response) => ((await response.json()) as { message: string }).message;
const passkeyRow = () => ctx.db.select().from(passkeys).where(eq(passkeys.user_id, userId)).get();

describe('POST /api/auth/passkey/options', () => {
  it('answers options without allowCredentials, user verification required, the challenge in an HttpOnly cookie', async () => {
    const { client, options } = await signInOptions(ctx.app);
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials).toBeUndefined();
    expect(client.cookies.has('passkey_challenge')).toBe(true);
  });
});

describe('POST /api/auth/passkey', () => {
  it('signs in with the same answer as a login, sets the session, and records the use', async () => {
    const { client, response } = await signInWithPasskey(ctx.app, authenticator, {}, true);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: number; email: string }; licenses: unknown[]; support_email: unknown };
    expect(body.user).toMatchObject({ id: userId, email: EMAIL });
    expect(body.licenses).toEqual([]);
    expect(response.headers.getSetCookie().find((line) => line.startsWith('session='))).toMatch(/Max-Age=/);
    expect((await client.request('GET', '/api/user')).status).toBe(200);
    expect(passkeyRow()?.counter).toBe(1);
    expect(passkeyRow()?.last_used_at).toBe(new Date(ctx.now()).toISOString());
    const session = ctx.db.select().from(sessions).where(eq(sessions.user_id, userId)).all().at(-1);
    expect(session?.signed_in_with).toBe('passkey');
  });

  it('needs no code step when two-factor is on: a verified passkey is both factors', async () => {
    await enrollTwoFactor(await login(ctx.app, EMAIL), ctx.now);
    const { response } = await signInWithPasskey(ctx.app, authenticator);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('user');
  });

  it('refuses an assertion without user verification', async () => {
    const { response } = await signInWithPasskey(ctx.app, authenticator, { userVerified: false });
    expect(response.status).toBe(422);
  });

  it('refuses an assertion made for another origin or another rp id', async () => {
    expect((await signInWithPasskey(ctx.app, authenticator, { origin: 'https://evil.example' })).response.status).toBe(422);
    expect((await signInWithPasskey(ctx.app, authenticator, { origin: 'http://localhost:4322' })).response.status).toBe(422);
    expect((await signInWithPasskey(ctx.app, authenticator, { rpId: 'evil.example' })).response.status).toBe(422);
    expect(passkeyRow()?.last_used_at).toBeNull();
  });

  it('takes each challenge once: a replayed assertion is refused', async () => {
    const { client, challenge } = await signInOptions(ctx.app);
    const answer = authenticator.assert({ challenge });
    const cookie = client.cookies.get('passkey_challenge') ?? '';
    expect((await client.request('POST', '/api/auth/passkey', { response: answer })).status).toBe(200);
    // Even with the challenge cookie put back, the challenge is spent.
    client.cookies.set('passkey_challenge', cookie);
    const replay = await client.request('POST', '/api/auth/passkey', { response: answer });
    expect(replay.status).toBe(422);
    expect(await message(replay)).toBe('The passkey request has expired. Please try again.');
  });

  it('refuses an answer to another browser’s challenge and an expired one', async () => {
    const { challenge } = await signInOptions(ctx.app);
    const { client: other } = await signInOptions(ctx.app);
    expect((await other.request('POST', '/api/auth/passkey', { response: authenticator.assert({ challenge }) })).status).toBe(422);
    const late = await signInOptions(ctx.app);
    ctx.advance(5 * 60_000);
    expect((await late.client.request('POST', '/api/auth/passkey', { response: authenticator.assert({ challenge: late.challenge }) })).status).toBe(422);
  });

  it('refuses a passkey whose counter went back, marks it, tells the owner, and refuses it from then on', async () => {
    expect((await signInWithPasskey(ctx.app, authenticator, { counter: 7 })).response.status).toBe(200);
    const cloned = await signInWithPasskey(ctx.app, authenticator, { counter: 3 });
    expect(cloned.response.status).toBe(422);
    expect(await message(cloned.response)).toBe('This passkey has been refused because it may have been copied. Sign in with your password.');
    expect(passkeyRow()?.suspected_clone_at).not.toBeNull();
    await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('it may have been copied'));
    // The genuine authenticator, counting on, is refused too: the owner removes it and adds a new one.
    expect((await signInWithPasskey(ctx.app, authenticator, { counter: 8 })).response.status).toBe(422);
  });

  it('accepts counters that stay zero (authenticators without a counter)', async () => {
    expect((await signInWithPasskey(ctx.app, authenticator, { counter: 0 })).response.status).toBe(200);
    expect((await signInWithPasskey(ctx.app, authenticator, { counter: 0 })).response.status).toBe(200);
  });

  it('does not mark a passkey by a forged assertion with a lower counter', async () => {
    await signInWithPasskey(ctx.app, authenticator, { counter: 5 });
    const { client, challenge } = await signInOptions(ctx.app);
    const forged = authenticator.assert({ challenge }, { counter: 1 });
    forged.response.signature = Buffer.from('not a signature').toString('base64url');
    expect((await client.request('POST', '/api/auth/passkey', { response: forged })).status).toBe(422);
    expect(passkeyRow()?.suspected_clone_at).toBeNull();
  });

  it('refuses an unknown credential', async () => {
    const stranger = authenticatorFor(ctx.config.siteUrl);
    stranger.register({ challenge: 'x', rp: {}, user: { id: 'AAAA' } });
    const { response } = await signInWithPasskey(ctx.app, stranger);
    expect(response.status).toBe(422);
    expect(await message(response)).toBe('This passkey is not registered here. Sign in with your password.');
  });

  it('refuses a banned user with the login’s message, after the proof', async () => {
    ctx.db.update(users).set({ is_banned: 1 }).where(eq(users.id, userId)).run();
    const { client, response } = await signInWithPasskey(ctx.app, authenticator);
    expect(response.status).toBe(403);
    expect(await message(response)).toBe('Your account has been suspended. Please contact the administrator.');
    expect((await client.request('GET', '/api/user')).status).toBe(401);
  });

  it('keeps the login’s rate limit: five failures a minute from one address, then 429 with Retry-After', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signInWithPasskey(ctx.app, authenticator, { origin: 'https://evil.example' })).response.status).toBe(422);
    }
    const { response } = await signInWithPasskey(ctx.app, authenticator);
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
    ctx.advance(60_000);
    expect((await signInWithPasskey(ctx.app, authenticator)).response.status).toBe(200);
  });

  it('counts against the account’s login limit and mails the lockout notice like the password login', async () => {
    const limit = ctx.config.accountLoginsPer15Minutes;
    // Attempts from the password login and the passkey share the account's count.
    for (let attempt = 0; attempt < limit; attempt++) {
      ctx.advance(13_000); // under five a minute from this address
      await signInWithPasskey(ctx.app, authenticator, { rpId: 'evil.example' });
    }
    const { response } = await signInWithPasskey(ctx.app, authenticator);
    expect(response.status).toBe(429);
    await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('Many failed sign-in attempts'));
  });
});
