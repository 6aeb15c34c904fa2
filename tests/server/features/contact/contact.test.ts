// POST /api/contact: stored, mailed to the admin with Reply-To the visitor, bot-checked and throttled.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '../../../../server/db/schema.ts';
import { anonymousClient } from '../../../helpers/accounts.ts';
import { fetchBotChallenge, solveBotChallenge } from '../../../helpers/botcheck.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const ADMIN_EMAIL = 'admin@example.test';
const valid = { name: 'Vera Visitor', email: 'vera@example.test', message: 'Do you offer on-site training?\nThanks.' };

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true, env: { ADMIN_EMAIL, ADMIN_PASSWORD: 'admin-password-123', TRUST_PROXY: 'true' } });
});
afterEach(() => ctx.cleanup());

async function send(fields: Record<string, unknown>, ip = '203.0.113.7') {
  const client = await anonymousClient(ctx.app);
  return client.request('POST', '/api/contact', { g_token: await solveBotChallenge(ctx.app), ...fields }, { headers: { 'X-Forwarded-For': ip } });
}

const stored = () => ctx.db.select().from(contactMessages).all();

describe('POST /api/contact', () => {
  it('stores the message with the IP, mails the admin with Reply-To the visitor, and answers Message sent.', async () => {
    const response = await send({ ...valid, name: '  Vera Visitor ' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Message sent.' });
    expect(stored()).toEqual([expect.objectContaining({ ...valid, ip: '203.0.113.7' })]);
    const mail = latestMailTo(ctx.config.outboxDir, ADMIN_EMAIL);
    expect(mail?.subject).toContain('Contact message from Vera Visitor');
    expect(mail?.replyTo).toContain('vera@example.test');
    expect(mail?.text).toContain('Do you offer on-site training?');
  });

  it('answers 422 with the first error under name and email and the message error as the general message', async () => {
    const response = await send({ name: '', email: 'nope', message: '   ' });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.errors.name?.[0]).toBe('The name field is required.');
    expect(body.errors.email?.[0]).toBe('The email field must be a valid email address.');
    expect(body.message).toBe('The message field is required.');

    const long = await send({ ...valid, message: 'x'.repeat(5001) });
    expect(((await long.json()) as { message: string }).message).toBe('The message field must not be greater than 5000 characters.');
    const fieldsOnly = await send({ ...valid, email: '' });
    expect(((await fieldsOnly.json()) as { message: string }).message).toBe('The email field is required.');
    expect(stored()).toHaveLength(0);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
  });

  it('refuses a missing, forged or replayed g_token with 422 and stores nothing more', async () => {
    const missing = await send({ ...valid, g_token: undefined });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: Record<string, string[]> }).errors.g_token).toEqual(['The bot check failed. Please try again.']);

    const challenge = await fetchBotChallenge(ctx.app);
    const forged = Buffer.from(JSON.stringify({ challenge: { ...challenge, signature: '0'.repeat(64) }, solution: { counter: 1, derivedKey: 'ab' } })).toString(
      'base64',
    );
    expect((await send({ ...valid, g_token: forged })).status).toBe(422);

    const token = await solveBotChallenge(ctx.app);
    expect((await send({ ...valid, g_token: token })).status).toBe(200);
    const replay = await send({ ...valid, g_token: token });
    expect(replay.status).toBe(422);
    expect(((await replay.json()) as { errors: Record<string, string[]> }).errors.g_token).toEqual(['This bot check was already used. Please try again.']);
    expect(stored()).toHaveLength(1);
  });

  it('takes 5 messages per IP per 10 minutes: the 6th answers 429 with Retry-After, other IPs are not affected', async () => {
    for (let index = 0; index < 5; index += 1) expect((await send(valid)).status).toBe(200);
    const refused = await send(valid);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('600');
    expect(((await refused.json()) as { message: string }).message).toBe('Too many requests. Please try again in 600 seconds.');
    expect((await send(valid, '198.51.100.9')).status).toBe(200);
    expect(stored()).toHaveLength(6);
    ctx.advance(10 * 60 * 1000);
    expect((await send(valid)).status).toBe(200);
  });

  it('counts an IPv6 visitor per /64, and stores the full address (issue 17 item 8)', async () => {
    for (let index = 1; index <= 5; index += 1) expect((await send(valid, `2001:db8:7:8::${index}`)).status).toBe(200);
    expect((await send(valid, '2001:db8:7:8:abcd::1')).status).toBe(429);
    expect((await send(valid, '2001:db8:7:9::1')).status).toBe(200);
    expect(stored().map((message) => message.ip)).toContain('2001:db8:7:8::3');
  });

  it('counts failed bot checks in the same limit (issue 17, item 1): after 5, a good message answers 429', async () => {
    for (let index = 0; index < 5; index += 1) {
      const client = await anonymousClient(ctx.app);
      const refused = await client.request('POST', '/api/contact', { ...valid, g_token: 'not-a-token' }, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      expect(refused.status).toBe(422);
    }
    const refused = await send(valid);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('600');
    expect(stored()).toHaveLength(0);
  });

  it('keeps the message when no admin address is configured', async () => {
    const bare = createTestContext();
    try {
      const client = await anonymousClient(bare.app);
      const response = await client.request('POST', '/api/contact', { ...valid, g_token: await solveBotChallenge(bare.app) });
      expect(response.status).toBe(200);
      expect(bare.db.select().from(contactMessages).all()).toHaveLength(1);
    } finally {
      bare.cleanup();
    }
  });
});
