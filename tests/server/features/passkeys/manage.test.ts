// Adding and managing passkeys (docs/product/accounts.md#passkeys): registration options and the check of the
// browser's answer with real WebAuthn data from the software authenticator, the list, rename and remove.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passkeys, users } from '../../../../server/db/schema.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { waitForMailTo } from '../../../helpers/accounts.ts';
import { authenticatorFor, type SoftwareAuthenticator } from '../../../helpers/passkey-authenticator.ts';
import { addPasskey, registrationOptions, signInWithPasskey } from '../../../helpers/passkeys.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const EMAIL = 'ann@example.test';

let ctx: TestContext;
let ann: LoggedInClient;
let authenticator: SoftwareAuthenticator;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: EMAIL, name: 'Ann' });
  ann = await login(ctx.app, EMAIL);
  authenticator = authenticatorFor(ctx.config.siteUrl, { backedUp: true });
});
afterEach(() => ctx.cleanup());

const rows = () => ctx.db.select().from(passkeys).all();

describe('POST /api/user/passkeys/options', () => {
  it('answers registration options: rp from SITE_URL, resident key and user verification required, the user by an opaque handle', async () => {
    const options = (await registrationOptions(ann)) as unknown as {
      rp: unknown;
      authenticatorSelection: unknown;
      attestation: string;
      user: { name: string; id: string };
      excludeCredentials: unknown[];
      challenge: unknown;
    };
    expect(options.rp).toEqual({ name: ctx.config.siteName, id: 'localhost' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
    expect(options.attestation).toBe('none');
    expect(options.user.name).toBe(EMAIL);
    // 32 bytes of an HMAC, not the account's id.
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect(options.excludeCredentials).toEqual([]);
    expect(typeof options.challenge).toBe('string');
  });

  it('asks for the password once the sign-in is older than 5 minutes, and refuses a wrong one', async () => {
    // A fresh sign-in is enough on its own.
    expect((await ann.request('POST', '/api/user/passkeys/options', {})).status).toBe(200);
    ctx.advance(5 * 60_000 + 1);
    const none = await ann.request('POST', '/api/user/passkeys/options', {});
    expect(none.status).toBe(422);
    expect(((await none.json()) as { errors: Record<string, string[]> }).errors.password).toEqual(['Enter your password to confirm it is you.']);
    const wrong = await ann.request('POST', '/api/user/passkeys/options', { password: 'not the password' });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { message: string }).message).toBe('The password is incorrect.');
    expect((await ann.request('POST', '/api/user/passkeys/options', { password: 'correct horse battery staple' })).status).toBe(200);
  });

  it('excludes the passkeys the user has already', async () => {
    expect((await addPasskey(ann, authenticator)).status).toBe(201);
    const options = (await registrationOptions(ann)) as unknown as { excludeCredentials: { id: string }[] };
    expect(options.excludeCredentials.map((credential) => credential.id)).toEqual([authenticator.credentials[0]?.id.toString('base64url')]);
  });
});

describe('POST /api/user/passkeys', () => {
  it('stores a valid registration, answers 201 with the passkey, and mails the owner', async () => {
    const response = await addPasskey(ann, authenticator, { name: '  Work laptop ' });
    expect(response.status).toBe(201);
    const { passkey } = (await response.json()) as { passkey: Record<string, unknown> };
    expect(passkey).toEqual({
      id: expect.any(Number),
      name: 'Work laptop',
      created_at: new Date(ctx.now()).toISOString(),
      last_used_at: null,
      backed_up: 1,
      device_type: 'multiDevice',
      suspected_clone: 0,
    });
    expect(rows()).toHaveLength(1);
    const mail = await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('A passkey was added'));
    expect(mail.text).not.toContain('Work laptop');
  });

  it('refuses an answer made for another origin', async () => {
    const response = await addPasskey(ann, authenticator, { overrides: { origin: 'https://evil.example' } });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe('The passkey could not be verified.');
    expect(rows()).toHaveLength(0);
  });

  it('refuses an answer made for another rp id', async () => {
    expect((await addPasskey(ann, authenticator, { overrides: { rpId: 'evil.example' } })).status).toBe(422);
    expect(rows()).toHaveLength(0);
  });

  it('refuses an answer without user verification', async () => {
    expect((await addPasskey(ann, authenticator, { overrides: { userVerified: false } })).status).toBe(422);
    expect(rows()).toHaveLength(0);
  });

  it('takes each challenge once: a replayed answer is refused', async () => {
    const creation = await registrationOptions(ann);
    const answer = authenticator.register(creation);
    expect((await ann.request('POST', '/api/user/passkeys', { name: 'One', response: answer })).status).toBe(201);
    const replay = await ann.request('POST', '/api/user/passkeys', { name: 'Two', response: answer });
    expect(replay.status).toBe(422);
    expect(((await replay.json()) as { message: string }).message).toBe('The passkey request has expired. Please try again.');
    expect(rows()).toHaveLength(1);
  });

  it('refuses an answer to a challenge of another session, and one older than 5 minutes', async () => {
    const creation = await registrationOptions(ann);
    const other = await login(ctx.app, EMAIL);
    // The challenge cookie went to ann's browser only; another browser of the same user cannot answer it.
    other.cookies.set('passkey_challenge', ann.cookies.get('passkey_challenge') ?? '');
    expect((await other.request('POST', '/api/user/passkeys', { name: 'Other', response: authenticator.register(creation) })).status).toBe(422);

    const late = await registrationOptions(ann, 'correct horse battery staple');
    ctx.advance(5 * 60_000);
    expect((await ann.request('POST', '/api/user/passkeys', { name: 'Late', response: authenticator.register(late) })).status).toBe(422);
    expect(rows()).toHaveLength(0);
  });

  it('sets the challenge cookie HttpOnly for 5 minutes', async () => {
    const response = await ann.request('POST', '/api/user/passkeys/options', { password: 'correct horse battery staple' });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('passkey_challenge='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=300/);
  });
});

describe('GET, PATCH and DELETE /api/user/passkeys', () => {
  it('lists, renames and (with the password) removes the caller’s own passkeys only', async () => {
    const { passkey } = (await (await addPasskey(ann, authenticator)).json()) as { passkey: { id: number } };
    const list = (await (await ann.request('GET', '/api/user/passkeys')).json()) as { passkeys: { name: string }[]; password_needed: unknown };
    expect(list.passkeys.map((item) => item.name)).toEqual(['My laptop']);
    expect(list.password_needed).toEqual({ add: false, remove: true });

    const renamed = await ann.request('PATCH', `/api/user/passkeys/${passkey.id}`, { name: 'Phone' });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { passkey: { name: string } }).passkey.name).toBe('Phone');

    await createUser(ctx, { email: 'bob@example.test' });
    const bob = await login(ctx.app, 'bob@example.test');
    expect((await bob.request('PATCH', `/api/user/passkeys/${passkey.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await bob.request('DELETE', `/api/user/passkeys/${passkey.id}`, { password: 'correct horse battery staple' })).status).toBe(404);

    expect((await ann.request('DELETE', `/api/user/passkeys/${passkey.id}`, {})).status).toBe(422);
    expect((await ann.request('DELETE', `/api/user/passkeys/${passkey.id}`, { password: 'wrong password here' })).status).toBe(422);
    expect((await ann.request('DELETE', `/api/user/passkeys/${passkey.id}`, { password: 'correct horse battery staple' })).status).toBe(204);
    expect(rows()).toHaveLength(0);
    await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('A passkey was removed'));
  });

  it('removes without the password within 5 minutes of a passkey sign-in, not after', async () => {
    await addPasskey(ann, authenticator);
    await addPasskey(ann, authenticator, { name: 'Second' });
    const [first, second] = rows();
    const { client, response } = await signInWithPasskey(ctx.app, authenticator);
    expect(response.status).toBe(200);
    const list = (await (await client.request('GET', '/api/user/passkeys')).json()) as { password_needed: unknown };
    expect(list.password_needed).toEqual({ add: false, remove: false });
    expect((await client.request('DELETE', `/api/user/passkeys/${second?.id}`, {})).status).toBe(204);
    ctx.advance(5 * 60_000 + 1);
    expect((await client.request('DELETE', `/api/user/passkeys/${first?.id}`, {})).status).toBe(422);
  });
});

describe('a deleted account', () => {
  it('takes its passkeys with it', async () => {
    await addPasskey(ann, authenticator);
    expect(rows()).toHaveLength(1);
    const response = await ann.request('DELETE', '/api/user/account', { password: 'correct horse battery staple' });
    expect(response.status).toBe(204);
    expect(ctx.db.select().from(users).where(eq(users.email, EMAIL)).all()).toHaveLength(0);
    expect(rows()).toHaveLength(0);
  });
});

describe('GET /api/user/export', () => {
  it('lists passkeys by name and dates, never the credential id or key', async () => {
    await addPasskey(ann, authenticator);
    const response = await ann.request('GET', '/api/user/export');
    const text = await response.text();
    const body = JSON.parse(text) as { passkeys: unknown[] };
    expect(body.passkeys).toEqual([
      { name: 'My laptop', device_type: 'multiDevice', synced: true, created_at: expect.any(String), last_used_at: null, suspected_clone_at: null },
    ]);
    const [row] = rows();
    expect(text).not.toContain(row?.credential_id);
    expect(text).not.toContain(row?.public_key);
  });
});
