// Two-factor from the dashboard (docs/product/accounts.md#two-factor-sign-in): setup, enable, disable,
// regenerating recovery codes, the secret encrypted at rest, and the notices mailed.
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { twoFactorCredentials, twoFactorRecoveryCodes, users } from '../../../../server/db/schema.ts';
import { twoFactorKeyFile } from '../../../../server/auth/secret-box.ts';
import { DEFAULT_TEST_PASSWORD, createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { waitForMailTo } from '../../../helpers/accounts.ts';
import { codeFor, enrollTwoFactor, passwordStep } from '../../../helpers/two-factor.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const EMAIL = 'ann@example.test';
const STEP = 30_000;

let ctx: TestContext;
let ann: LoggedInClient;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: EMAIL, name: 'Ann' });
  ann = await login(ctx.app, EMAIL);
});
afterEach(() => ctx.cleanup());

const credential = (userId: number) => ctx.db.select().from(twoFactorCredentials).where(eq(twoFactorCredentials.user_id, userId)).get();
const userRow = (userId: number) => ctx.db.select().from(users).where(eq(users.id, userId)).get();

describe('POST /api/user/two-factor/setup', () => {
  it('answers a secret, its otpauth address and a QR code made here, pending until enabled', async () => {
    const response = await ann.request('POST', '/api/user/two-factor/setup');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { secret: string; otpauth_url: string; qr_svg: string };
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(body.otpauth_url).toContain(`secret=${body.secret}`);
    expect(body.otpauth_url).toContain('digits=6');
    expect(body.otpauth_url).toContain('period=30');
    expect(body.qr_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(body.qr_svg).not.toMatch(/<script|href=/i);
    expect(userRow(ann.user.id)?.two_factor_enabled_at).toBeNull();
    expect(credential(ann.user.id)?.secret).toBeNull();
    // The pending secret is encrypted too.
    expect(credential(ann.user.id)?.pending_secret).toMatch(/^v1:/);
    expect(credential(ann.user.id)?.pending_secret).not.toContain(body.secret);
  });

  it('a repeat setup replaces the pending secret: the first one no longer enables', async () => {
    const first = (await (await ann.request('POST', '/api/user/two-factor/setup')).json()) as { secret: string };
    const second = (await (await ann.request('POST', '/api/user/two-factor/setup')).json()) as { secret: string };
    expect(second.secret).not.toBe(first.secret);
    const stale = await ann.request('POST', '/api/user/two-factor/enable', { code: codeFor(first.secret, ctx.now()) });
    expect(stale.status).toBe(422);
    const fresh = await ann.request('POST', '/api/user/two-factor/enable', { code: codeFor(second.secret, ctx.now()) });
    expect(fresh.status).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const { client } = await passwordStep(ctx.app, 'nobody@example.test');
    expect((await client.request('POST', '/api/user/two-factor/setup')).status).toBe(401);
  });
});

describe('POST /api/user/two-factor/enable', () => {
  it('with a right code: turns two-factor on, answers ten distinct recovery codes once, and mails a notice', async () => {
    const { secret, recoveryCodes } = await enrollTwoFactor(ann, ctx.now);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
    expect(userRow(ann.user.id)?.two_factor_enabled_at).not.toBeNull();

    const mail = await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('Two-factor sign-in turned on'));
    expect(mail.text).toContain('If this was not you');

    // Stored hashed: none of the codes (nor the secret) is in the database in plain text.
    const stored = ctx.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, ann.user.id)).all();
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify({ stored, credential: credential(ann.user.id) });
    for (const code of recoveryCodes) expect(dump).not.toContain(code.replace(/-/g, ''));
    expect(dump).not.toContain(secret);

    const me = (await (await ann.request('GET', '/api/user')).json()) as { user: { two_factor_enabled_at: string | null } };
    expect(me.user.two_factor_enabled_at).not.toBeNull();
  });

  it('the secret is encrypted at rest with a key outside the database (a 0600 file in DATA_DIR/secrets)', async () => {
    const { secret } = await enrollTwoFactor(ann, ctx.now);
    const row = credential(ann.user.id);
    expect(row?.secret).toMatch(/^v1:/);
    expect(row?.secret).not.toContain(secret);
    const raw = fs.readFileSync(ctx.config.databaseFile);
    expect(raw.includes(Buffer.from(secret))).toBe(false);
    const stat = fs.statSync(twoFactorKeyFile(ctx.config));
    expect(stat.mode & 0o777).toBe(0o600);
    // The key is not in the database either.
    expect(raw.includes(Buffer.from(fs.readFileSync(twoFactorKeyFile(ctx.config), 'utf8').trim()))).toBe(false);
  });

  it('a wrong code, or none set up, changes nothing', async () => {
    const none = await ann.request('POST', '/api/user/two-factor/enable', { code: '123456' });
    expect(none.status).toBe(422);
    const setup = (await (await ann.request('POST', '/api/user/two-factor/setup')).json()) as { secret: string };
    const wrong = await ann.request('POST', '/api/user/two-factor/enable', { code: codeFor(setup.secret, ctx.now(), 3) });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.code?.[0]).toBe('The code is not valid.');
    const malformed = await ann.request('POST', '/api/user/two-factor/enable', { code: '12ab56' });
    expect(malformed.status).toBe(422);
    expect(userRow(ann.user.id)?.two_factor_enabled_at).toBeNull();
  });

  it('refuses a second enrolment while on', async () => {
    await enrollTwoFactor(ann, ctx.now);
    expect((await ann.request('POST', '/api/user/two-factor/setup')).status).toBe(409);
  });
});

describe('POST /api/user/two-factor/disable', () => {
  it('needs the password and a current code, then turns it off, forgets the secret and mails a notice', async () => {
    const { secret } = await enrollTwoFactor(ann, ctx.now);
    ctx.advance(STEP);
    const wrongPassword = await ann.request('POST', '/api/user/two-factor/disable', { password: 'not it', code: codeFor(secret, ctx.now()) });
    expect(wrongPassword.status).toBe(422);
    expect(((await wrongPassword.json()) as { errors: Record<string, string[]> }).errors.password).toBeDefined();
    const wrongCode = await ann.request('POST', '/api/user/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: codeFor(secret, ctx.now(), 5) });
    expect(wrongCode.status).toBe(422);
    expect(userRow(ann.user.id)?.two_factor_enabled_at).not.toBeNull();

    const done = await ann.request('POST', '/api/user/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: codeFor(secret, ctx.now()) });
    expect(done.status).toBe(204);
    expect(userRow(ann.user.id)?.two_factor_enabled_at).toBeNull();
    expect(credential(ann.user.id)).toBeUndefined();
    expect(ctx.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, ann.user.id)).all()).toHaveLength(0);
    await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('Two-factor sign-in turned off'));

    // The password alone signs in again.
    const { response } = await passwordStep(ctx.app, EMAIL);
    expect(((await response.json()) as { user?: unknown }).user).toBeDefined();
  });

  it('accepts a recovery code in place of the app’s code (a lost phone)', async () => {
    const { recoveryCodes } = await enrollTwoFactor(ann, ctx.now);
    const done = await ann.request('POST', '/api/user/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: recoveryCodes[0] });
    expect(done.status).toBe(204);
  });

  it('answers 409 when two-factor is off', async () => {
    const response = await ann.request('POST', '/api/user/two-factor/disable', { password: DEFAULT_TEST_PASSWORD, code: '123456' });
    expect(response.status).toBe(409);
  });
});

describe('POST /api/user/two-factor/recovery-codes', () => {
  it('answers ten new codes and voids the old ones', async () => {
    const { secret, recoveryCodes: old } = await enrollTwoFactor(ann, ctx.now);
    ctx.advance(STEP);
    const response = await ann.request('POST', '/api/user/two-factor/recovery-codes', { password: DEFAULT_TEST_PASSWORD, code: codeFor(secret, ctx.now()) });
    expect(response.status).toBe(200);
    const { recovery_codes: fresh } = (await response.json()) as { recovery_codes: string[] };
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => old.includes(code))).toBe(false);

    const oldTry = await passwordStep(ctx.app, EMAIL);
    expect((await oldTry.client.request('POST', '/api/auth/two-factor', { recovery_code: old[1] })).status).toBe(422);
    expect((await oldTry.client.request('POST', '/api/auth/two-factor', { recovery_code: fresh[0] })).status).toBe(200);
  });

  it('needs the password and a code, and throttles guesses per user', async () => {
    const { secret } = await enrollTwoFactor(ann, ctx.now);
    const bad = { password: DEFAULT_TEST_PASSWORD, code: codeFor(secret, ctx.now(), 4) };
    // The enabling code was the first of ten confirmations in the window; nine wrong ones use the rest.
    for (let attempt = 0; attempt < 9; attempt += 1) expect((await ann.request('POST', '/api/user/two-factor/recovery-codes', bad)).status).toBe(422);
    const refused = await ann.request('POST', '/api/user/two-factor/recovery-codes', { password: DEFAULT_TEST_PASSWORD, code: codeFor(secret, ctx.now()) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});
