// POST /api/auth/create: the account, the verification mail, and every refusal changing nothing.
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bannedDomains, users } from '../../../../server/db/schema.ts';
import { verifyPassword } from '../../../../server/auth/passwords.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { register, STRONG_PASSWORD } from '../../../helpers/accounts.ts';
import { fetchBotChallenge, solveBotChallenge } from '../../../helpers/botcheck.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const SUCCESS = 'Registration successful. Please check your email and follow the link to verify your address.';
const TAKEN = 'This email cannot be used to register. If it is yours, log in or reset your password.';
const BANNED = 'Registrations from this email domain are not accepted. Please use another address.';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

const userCount = () => ctx.db.select().from(users).all().length;

async function errorsOf(response: Response): Promise<{ message: string; errors: Record<string, string[]> }> {
  expect(response.status).toBe(422);
  return (await response.json()) as { message: string; errors: Record<string, string[]> };
}

describe('registration', () => {
  it('creates an unverified user, mails the verification link and does not log in', async () => {
    const response = await register(ctx.app, { name: '  Ann  ', email: ' Ann@Example.test ' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ message: SUCCESS });
    expect(response.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);

    const user = ctx.db.select().from(users).get();
    expect(user).toMatchObject({ name: 'Ann', email: 'Ann@Example.test', email_verified_at: null, role: 'user', is_banned: 0, license_request: 0 });
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user?.password_hash ?? '', STRONG_PASSWORD)).toBe(true);

    const mail = latestMailTo(ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toContain('Verify your e-mail address');
    expect(mail?.text).toMatch(new RegExp(`http://localhost:4321/api/auth/email/verify/${user?.id}/[0-9a-f]{64}\\?expires=\\d+&signature=[0-9a-f]{64}`));
  });

  it('lets the new user log in with the chosen password', async () => {
    await register(ctx.app, { email: 'new@example.test' });
    const client = await login(ctx.app, 'new@example.test', STRONG_PASSWORD);
    expect(client.user).toMatchObject({ email: 'new@example.test', email_verified_at: null });
  });

  describe('refuses bad fields with the first message per field, and creates nothing', () => {
    it('reports every missing field at once', async () => {
      const body = await errorsOf(await register(ctx.app, { name: '   ', email: '', password: '', password_confirmation: '' }));
      expect(body.errors.name?.[0]).toBe('The name field is required.');
      expect(body.errors.email?.[0]).toBe('The email field is required.');
      expect(body.errors.password?.[0]).toBe('The password field is required.');
      expect(body.message).toBe('The name field is required.');
      expect(userCount()).toBe(0);
    });

    it('refuses a name over 255 characters and a malformed e-mail', async () => {
      const body = await errorsOf(await register(ctx.app, { name: 'x'.repeat(256), email: 'not-an-address' }));
      expect(body.errors.name?.[0]).toBe('The name field must not be greater than 255 characters.');
      expect(body.errors.email?.[0]).toBe('The email field must be a valid email address.');
    });

    it('refuses fields of the wrong type', async () => {
      const body = await errorsOf(await register(ctx.app, { name: 42, email: ['a@b.test'], password: 12345678 }));
      expect(Object.keys(body.errors).sort()).toEqual(['email', 'name', 'password']);
    });

    it('refuses a password shorter than 8 or longer than 128 characters', async () => {
      const short = await errorsOf(await register(ctx.app, { password: 'Ab3$xyz' }));
      expect(short.errors.password?.[0]).toBe('The password field must be at least 8 characters.');
      const long = await errorsOf(await register(ctx.app, { password: 'Ab3$'.repeat(33) }));
      expect(long.errors.password?.[0]).toBe('The password field must not be greater than 128 characters.');
    });

    it('accepts a 64-character password (the issue asks for at least 64)', async () => {
      expect((await register(ctx.app, { password: 'v9#Lq2'.repeat(10) + 'Zz!1' })).status).toBe(201);
    });

    it('refuses a confirmation that does not match, on the password field', async () => {
      const body = await errorsOf(await register(ctx.app, { password: STRONG_PASSWORD, password_confirmation: `${STRONG_PASSWORD}x` }));
      expect(body.errors.password).toEqual(['The password field confirmation does not match.']);
      const missing = await errorsOf(await register(ctx.app, { password: STRONG_PASSWORD, password_confirmation: undefined }));
      expect(missing.errors.password).toEqual(['The password field confirmation does not match.']);
    });

    it('refuses common passwords, whatever their case', async () => {
      for (const password of ['password', '12345678', 'Sunshine', 'IloveYou1']) {
        const body = await errorsOf(await register(ctx.app, { password }));
        expect(body.errors.password?.[0], password).toBe('This password is too common. Please choose another one.');
      }
      expect(userCount()).toBe(0);
    });
  });

  describe('banned domains', () => {
    beforeEach(() => {
      ctx.db
        .insert(bannedDomains)
        .values([{ domain: 'Spam.com' }, { domain: 'junk.example' }])
        .run();
    });

    it('refuses the domain itself, a subdomain, and any letter case, with a clear message on email', async () => {
      for (const email of ['bob@spam.com', 'bob@SPAM.Com', 'bob@mail.spam.com', 'bob@a.b.Junk.Example']) {
        const body = await errorsOf(await register(ctx.app, { email }));
        expect(body.errors, email).toEqual({ email: [BANNED] });
        expect(body.message).toBe(BANNED);
      }
      expect(userCount()).toBe(0);
      expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
    });

    it('does not refuse a domain that merely ends with the same letters', async () => {
      expect((await register(ctx.app, { email: 'bob@notspam.com' })).status).toBe(201);
    });
  });

  describe('already registered e-mails', () => {
    it('refuses the same address in another letter case without saying more than needed', async () => {
      await createUser(ctx, { email: 'taken@example.test' });
      const body = await errorsOf(await register(ctx.app, { email: 'TAKEN@Example.Test' }));
      expect(body).toEqual({ message: TAKEN, errors: { email: [TAKEN] } });
      expect(userCount()).toBe(1);
      expect(latestMailTo(ctx.config.outboxDir, 'taken@example.test')).toBeUndefined();
    });

    it('gives exactly one account to 50 concurrent registrations of one address in different cases', async () => {
      const raced = createTestContext({ env: { TRUST_PROXY: 'true' } });
      try {
        const variants = Array.from({ length: 50 }, (_, index) =>
          [...'race.winner@example.test'].map((char, position) => ((index >> (position % 6)) & 1 ? char.toUpperCase() : char)).join(''),
        );
        // Tokens first, so the registrations themselves start together; each from its own IP (throttle).
        const tokens = await Promise.all(variants.map(() => solveBotChallenge(raced.app)));
        const responses = await Promise.all(
          variants.map((email, index) => register(raced.app, { email, g_token: tokens[index] }, { headers: { 'X-Forwarded-For': `10.0.${index}.1` } })),
        );
        const statuses = responses.map((response) => response.status).sort();
        expect(statuses.filter((status) => status === 201)).toHaveLength(1);
        expect(statuses.filter((status) => status === 422)).toHaveLength(49);
        for (const response of responses.filter((r) => r.status === 422)) expect(((await response.json()) as { message: string }).message).toBe(TAKEN);
        const count = raced.db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(sql`lower(${users.email}) = 'race.winner@example.test'`)
          .get();
        expect(count?.n).toBe(1);
        expect(readOutbox(raced.config.outboxDir)).toHaveLength(1);
      } finally {
        raced.cleanup();
      }
    });
  });

  describe('bot check', () => {
    it('refuses a missing, forged or replayed g_token with 422 and creates nothing', async () => {
      const missing = await errorsOf(await register(ctx.app, { g_token: undefined }));
      expect(missing.errors.g_token?.[0]).toBe('The bot check failed. Please try again.');

      const challenge = await fetchBotChallenge(ctx.app);
      const forged = Buffer.from(JSON.stringify({ challenge, solution: { counter: 0, derivedKey: '00' } })).toString('base64');
      expect((await errorsOf(await register(ctx.app, { g_token: forged }))).errors.g_token).toBeDefined();

      const token = await solveBotChallenge(ctx.app);
      expect((await register(ctx.app, { email: 'first@example.test', g_token: token })).status).toBe(201);
      const replay = await errorsOf(await register(ctx.app, { email: 'second@example.test', g_token: token }));
      expect(replay.errors.g_token?.[0]).toBe('This bot check was already used. Please try again.');
      expect(
        ctx.db
          .select()
          .from(users)
          .all()
          .map((user) => user.email),
      ).toEqual(['first@example.test']);
    });
  });

  it('refuses a request without the XSRF header with 419', async () => {
    const response = await register(ctx.app, {}, { headers: { 'X-XSRF-TOKEN': null } });
    expect(response.status).toBe(419);
    expect(userCount()).toBe(0);
  });

  it('counts failed bot checks as registration attempts (issue 17, item 1)', async () => {
    const throttled = createTestContext({ fakeClock: true });
    try {
      for (let index = 0; index < 10; index += 1) {
        expect((await register(throttled.app, { email: `bot${index}@example.test`, g_token: 'not-a-token' })).status).toBe(422);
      }
      expect((await register(throttled.app, { email: 'person@example.test' })).status).toBe(429);
    } finally {
      throttled.cleanup();
    }
  });

  it('throttles registrations per IP (10 an hour) with 429 and Retry-After, not counting typos', async () => {
    const throttled = createTestContext({ fakeClock: true });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await register(throttled.app, { email: 'typo' })).status).toBe(422);
      for (let index = 0; index < 10; index += 1) expect((await register(throttled.app, { email: `user${index}@example.test` })).status).toBe(201);
      const refused = await register(throttled.app, { email: 'eleventh@example.test' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(3000);
      expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.email?.[0]).toMatch(
        /^Too many requests\. Please try again in \d+ seconds\.$/,
      );
      throttled.advance(60 * 60 * 1000);
      expect((await register(throttled.app, { email: 'eleventh@example.test' })).status).toBe(201);
    } finally {
      throttled.cleanup();
    }
  });
});
