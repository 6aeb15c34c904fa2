// The verification link (signed, 60 minutes, voided by an e-mail change) and POST /api/auth/email/resend.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../../server/app.ts';
import { openDatabase } from '../../../../server/db/client.ts';
import { users } from '../../../../server/db/schema.ts';
import { createClient, createUser, login } from '../../../helpers/auth.ts';
import { linkIn, redirectTarget, register } from '../../../helpers/accounts.ts';
import { latestMailTo, linksIn, parseMail, readOutbox, startSmtpCapture } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const VERIFIED = 'Your email has been verified.';
const INVALID = 'This verification link is invalid or has expired.';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true });
});
afterEach(() => ctx.cleanup());

const userByEmail = (email: string) => ctx.db.select().from(users).where(eq(users.email, email)).get();

/** Registers and returns the verification link from the outbox. */
async function registerAndGetLink(email = 'ann@example.test'): Promise<string> {
  expect((await register(ctx.app, { email })).status).toBe(201);
  const mail = latestMailTo(ctx.config.outboxDir, email);
  if (!mail) throw new Error('no verification mail');
  return linkIn(mail, '/api/auth/email/verify/');
}

/** Follows a link the way a mail client does: a plain GET, no cookies, no XSRF header. */
const follow = (link: string) => ctx.app.request(link);

function expectResultPage(response: Response, validation: '0' | '1', message: string, email: string) {
  expect(response.status).toBe(302);
  const target = redirectTarget(response);
  expect(target.pathname).toBe('/email/verified');
  expect(Object.fromEntries(target.searchParams)).toEqual({ validation, message, email });
  // Encoded with %20, which URLSearchParams and decodeURIComponent both read back.
  expect(response.headers.get('Location')).toContain(encodeURIComponent(message));
}

describe('following the verification link', () => {
  it('marks the e-mail verified and lands on the success page with the address', async () => {
    const link = await registerAndGetLink('Ann+site@Example.test');
    expect(userByEmail('Ann+site@Example.test')?.email_verified_at).toBeNull();
    const response = await follow(link);
    expectResultPage(response, '1', VERIFIED, 'Ann+site@Example.test');
    expect(userByEmail('Ann+site@Example.test')?.email_verified_at).toBe(new Date(ctx.now()).toISOString());
  });

  it('is harmless to follow twice and keeps the first verification time', async () => {
    const link = await registerAndGetLink();
    await follow(link);
    const first = userByEmail('ann@example.test')?.email_verified_at;
    ctx.advance(60_000);
    expectResultPage(await follow(link), '1', VERIFIED, 'ann@example.test');
    expect(userByEmail('ann@example.test')?.email_verified_at).toBe(first);
  });

  it('works without any cookie or header (opened from a mail client) and sets no session', async () => {
    const link = await registerAndGetLink();
    const response = await ctx.app.request(link, { headers: {} });
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);
  });

  it('refuses a tampered signature, expiry or id and changes nothing', async () => {
    const link = await registerAndGetLink();
    const url = new URL(link);
    const tamperedSignature = new URL(url);
    tamperedSignature.searchParams.set('signature', 'f'.repeat(64));
    const laterExpiry = new URL(url);
    laterExpiry.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400));
    const extraParam = new URL(url);
    extraParam.searchParams.set('admin', '1');
    const noSignature = new URL(url);
    noSignature.searchParams.delete('signature');
    for (const tampered of [tamperedSignature, laterExpiry, extraParam, noSignature]) {
      // Issue 17, item 2: the id and hash still belong to this user, but an unsigned link echoes nothing.
      expectResultPage(await follow(tampered.toString()), '0', INVALID, '');
    }
    expect(userByEmail('ann@example.test')?.email_verified_at).toBeNull();
  });

  it('does not reveal anybody’s address for a link pointing at another id', async () => {
    await createUser(ctx, { email: 'victim@example.test', verified: false });
    const link = await registerAndGetLink();
    const victim = userByEmail('victim@example.test');
    const otherId = link.replace(/\/verify\/\d+\//, `/verify/${victim?.id}/`);
    expectResultPage(await follow(otherId), '0', INVALID, '');
    expectResultPage(await follow('http://localhost:4321/api/auth/email/verify/999/abc?expires=1&signature=00'), '0', INVALID, '');
    expect(userByEmail('victim@example.test')?.email_verified_at).toBeNull();
  });

  it('is no account oracle: an unsigned link whose hash is a registered address answers exactly as for nobody (issue 17, item 2)', async () => {
    const victim = await createUser(ctx, { email: 'victim@example.test', verified: false });
    const victimHash = createHash('sha256').update('victim@example.test').digest('hex');
    const strangerHash = createHash('sha256').update('nobody@example.test').digest('hex');
    const base = 'http://localhost:4321/api/auth/email/verify';
    const guesses = [
      `${base}/${victim.id}/${victimHash}`,
      `${base}/${victim.id}/${victimHash}?expires=9999999999&signature=${'0'.repeat(64)}`,
      `${base}/${victim.id}/${strangerHash}`,
      `${base}/${victim.id + 1}/${victimHash}`,
    ];
    const answers = await Promise.all(guesses.map(async (guess) => (await follow(guess)).headers.get('Location')));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).not.toContain('victim');
    expectResultPage(await follow(guesses[0] ?? ''), '0', INVALID, '');
    expect(userByEmail('victim@example.test')?.email_verified_at).toBeNull();
  });

  it('expires after 60 minutes (fake clock), still showing the address so it can be re-sent', async () => {
    const link = await registerAndGetLink();
    ctx.advance(59 * 60 * 1000);
    const stillValid = new URL(link);
    expect(stillValid.searchParams.get('expires')).toBe(String((ctx.now() + 60_000) / 1000));
    ctx.advance(61 * 1000);
    expectResultPage(await follow(link), '0', INVALID, 'ann@example.test');
    expect(userByEmail('ann@example.test')?.email_verified_at).toBeNull();
  });

  it('dies when the account’s e-mail changes', async () => {
    const link = await registerAndGetLink();
    ctx.db.update(users).set({ email: 'changed@example.test' }).where(eq(users.email, 'ann@example.test')).run();
    expectResultPage(await follow(link), '0', INVALID, '');
    expect(userByEmail('changed@example.test')?.email_verified_at).toBeNull();
  });

  it('survives a restart: the signing secret is kept in the database', async () => {
    const link = await registerAndGetLink();
    // A new connection is a new Db object, so nothing cached in memory for the old one applies.
    const db = openDatabase(ctx.config.databaseFile);
    try {
      const restarted = createApp({ ...ctx, db });
      expect(redirectTarget(await restarted.request(link)).searchParams.get('validation')).toBe('1');
    } finally {
      db.$client.close();
    }
  });
});

describe('verification mail through a real SMTP server', () => {
  it('arrives with a link that verifies the address', async () => {
    const smtp = await startSmtpCapture();
    const mailed = createTestContext({ env: { SMTP_URL: smtp.url } });
    try {
      // A name chosen to advertise through our mail (issue 17, item 3): the mail does not carry it.
      const name = 'Visit http://evil.example and www.spam.example now';
      expect((await register(mailed.app, { email: 'smtp.user@example.test', name })).status).toBe(201);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]?.to).toEqual(['smtp.user@example.test']);
      const mail = parseMail(smtp.messages[0]?.raw ?? '');
      expect(mail.partTypes).toEqual(['text/plain', 'text/html']);
      expect(mail.text).toContain('\nHello,\n');
      for (const part of [mail.text, mail.html, mail.subject]) expect(part).not.toMatch(/evil|spam|Visit/);
      const link = linksIn(mail.text).find((candidate) => candidate.includes('/api/auth/email/verify/'));
      expect(mail.html).toContain(link?.replace(/&/g, '&amp;'));
      const response = await mailed.app.request(link ?? '');
      expect(redirectTarget(response).searchParams.get('validation')).toBe('1');
      expect(readOutbox(mailed.config.outboxDir)).toHaveLength(0);
    } finally {
      mailed.cleanup();
      await smtp.close();
    }
  });
});

describe('POST /api/auth/email/resend', () => {
  it('sends a new working link to an unverified user', async () => {
    await createUser(ctx, { email: 'late@example.test', verified: false });
    const client = await login(ctx.app, 'late@example.test');
    const response = await client.request('POST', '/api/auth/email/resend');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'New link sent. Check your email.', sent: true });
    const mail = latestMailTo(ctx.config.outboxDir, 'late@example.test');
    if (!mail) throw new Error('no mail');
    expectResultPage(await follow(linkIn(mail, '/api/auth/email/verify/')), '1', VERIFIED, 'late@example.test');
    const user = (await (await client.request('GET', '/api/user')).json()) as { user: { email_verified_at: string | null } };
    expect(user.user.email_verified_at).not.toBeNull();
  });

  it('tells a verified user so and sends nothing', async () => {
    await createUser(ctx, { email: 'done@example.test', verified: true });
    const client = await login(ctx.app, 'done@example.test');
    const response = await client.request('POST', '/api/auth/email/resend');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Your email is already verified.', sent: false });
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
  });

  it('answers 503 when the mail cannot be sent, so the client shows its error', async () => {
    const broken = createTestContext({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      await createUser(broken, { email: 'late@example.test', verified: false });
      const client = await login(broken.app, 'late@example.test');
      const response = await client.request('POST', '/api/auth/email/resend');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ message: 'The email could not be sent. Please try again later or contact admin.' });
    } finally {
      broken.cleanup();
    }
  });

  it('needs a logged-in user (401) and the XSRF header (419)', async () => {
    const anonymous = createClient(ctx.app);
    await anonymous.fetchCsrfCookie();
    expect((await anonymous.request('POST', '/api/auth/email/resend')).status).toBe(401);
    await createUser(ctx, { email: 'late@example.test', verified: false });
    const client = await login(ctx.app, 'late@example.test');
    expect((await client.request('POST', '/api/auth/email/resend', undefined, { headers: { 'X-XSRF-TOKEN': null } })).status).toBe(419);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
  });

  it('allows 3 an hour per user: the 4th answers 429 with Retry-After and the wait in minutes, and an hour later it works again', async () => {
    await createUser(ctx, { email: 'late@example.test', verified: false });
    await createUser(ctx, { email: 'other@example.test', verified: false });
    const client = await login(ctx.app, 'late@example.test');
    for (let index = 0; index < 3; index += 1) expect((await client.request('POST', '/api/auth/email/resend')).status).toBe(200);
    const refused = await client.request('POST', '/api/auth/email/resend');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('3600');
    expect(((await refused.json()) as { message: string }).message).toBe('Too many verification emails requested. Please try again in 60 minutes.');
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(3);
    // Per user: someone else is not affected.
    const other = await login(ctx.app, 'other@example.test');
    expect((await other.request('POST', '/api/auth/email/resend')).status).toBe(200);
    ctx.advance(60 * 60_000);
    expect((await client.request('POST', '/api/auth/email/resend')).status).toBe(200);
  });

  it('stops mailing an address after ACCOUNT_MAILS_PER_DAY (10) a day, answering as if sent, and logs it', async () => {
    await createUser(ctx, { email: 'late@example.test', verified: false });
    // Three an hour, spread over the day: the per-account limit never refuses, the daily cap does.
    const answers: number[] = [];
    for (let hour = 0; hour < 5; hour += 1) {
      // Signed in afresh each time: an idle session would end between the rounds.
      const client = await login(ctx.app, 'late@example.test');
      for (let index = 0; index < 3; index += 1) answers.push((await client.request('POST', '/api/auth/email/resend')).status);
      ctx.advance(60 * 60_000);
    }
    expect(answers).toEqual(Array(15).fill(200));
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(10);
    expect(ctx.logLines.filter((line) => line.includes('not sent: the address has had its account mails for today'))).toHaveLength(5);
    // A day after the first ones, the address gets mail again.
    ctx.advance(20 * 60 * 60_000);
    const later = await login(ctx.app, 'late@example.test');
    expect((await later.request('POST', '/api/auth/email/resend')).status).toBe(200);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(11);
  });
});
