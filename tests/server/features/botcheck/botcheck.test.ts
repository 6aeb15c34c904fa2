// The bot check end to end on a tiny app: the real challenge route, requireBotToken in front of a handler
// (and of a zod validator), and tokens solved in-process as the browser would. Every way a token can be
// bad must answer 422 with a g_token message and never reach the handler.
import { Hono } from 'hono';
import { createChallenge, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../../../server/context.ts';
import { openDatabase } from '../../../../server/db/client.ts';
import { botcheckSpent } from '../../../../server/db/schema.ts';
import { getSetting } from '../../../../server/db/queries/settings.ts';
import {
  BOTCHECK_LIFETIME_MS,
  BOTCHECK_MESSAGES,
  BOTCHECK_VERIFY_WINDOW_MS,
  botcheckKdf,
  requireBotToken,
  verifyBotToken,
} from '../../../../server/auth/botcheck.ts';
import { botcheckRoutes } from '../../../../server/features/botcheck/routes.ts';
import { validate } from '../../../../server/http/validate.ts';
import { encodeBotToken, fetchBotChallenge, solveBotChallenge, solveFetchedChallenge } from '../../../helpers/botcheck.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

interface BotcheckHarness {
  ctx: TestContext;
  app: Hono<AppEnv>;
  /** Bodies the guarded handler received: it must run only for good tokens. */
  handled: unknown[];
  post(path: string, body: unknown): Promise<Response>;
}

const contexts: TestContext[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const ctx of contexts.splice(0)) ctx.cleanup();
});

function setup(options: { fakeClock?: boolean; env?: Record<string, string> } = {}): BotcheckHarness {
  const ctx = createTestContext({ fakeClock: options.fakeClock, env: { BOTCHECK_COST: '1', ...options.env } });
  contexts.push(ctx);
  const handled: unknown[] = [];
  const app = new Hono<AppEnv>();
  app.route('/api/botcheck', botcheckRoutes(ctx));
  app.post('/guarded', requireBotToken(ctx), async (c) => {
    const body = await c.req.json();
    handled.push(body);
    return c.json({ received: body });
  });
  app.post('/validated', requireBotToken(ctx), validate('json', z.object({ name: z.string().min(1, 'The name field is required.') })), (c) => {
    const body = c.req.valid('json');
    handled.push(body);
    return c.json({ name: body.name });
  });
  const post = (path: string, body: unknown) =>
    Promise.resolve(
      app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    );
  return { ctx, app, handled, post };
}

async function expectRefused(response: Response, message: string) {
  expect(response.status).toBe(422);
  expect(await response.json()).toEqual({ message, errors: { g_token: [message] } });
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('GET /api/botcheck/challenge', () => {
  it('answers a fresh signed PBKDF2 challenge with the configured cost, a 10-minute expiry and no caching', async () => {
    const { ctx, app } = setup({ fakeClock: true, env: { BOTCHECK_COST: '7' } });
    const response = await app.request('/api/botcheck/challenge');
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const challenge = (await response.json()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 7, keyLength: 32, keyPrefix: '0' });
    expect(challenge.parameters.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(challenge.parameters.data).toEqual({ expires: ctx.now() + BOTCHECK_LIFETIME_MS });

    const second = await fetchBotChallenge(app);
    expect(second.parameters.nonce).not.toBe(challenge.parameters.nonce);
  });
});

describe('requireBotToken', () => {
  it('lets a solved token through once, with the body intact for the handler', async () => {
    const { handled, post, app } = setup();
    const g_token = await solveBotChallenge(app);

    const first = await post('/guarded', { g_token, name: 'Ann' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: { g_token, name: 'Ann' } });

    await expectRefused(await post('/guarded', { g_token, name: 'Ann' }), BOTCHECK_MESSAGES.used);
    expect(handled).toHaveLength(1);
  });

  it('runs before a zod validator, which still reads the body', async () => {
    const { handled, post, app } = setup();
    const ok = await post('/validated', { g_token: await solveBotChallenge(app), name: 'Ann' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ name: 'Ann' });

    const invalid = await post('/validated', { g_token: await solveBotChallenge(app), name: '' });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ message: 'The name field is required.', errors: { name: ['The name field is required.'] } });

    await expectRefused(await post('/validated', { name: 'Ann' }), BOTCHECK_MESSAGES.failed);
    expect(handled).toEqual([{ name: 'Ann' }]);
  });

  it.each([
    ['no body', undefined],
    ['invalid JSON', '{"g_token":'],
    ['a JSON array', []],
    ['no g_token', { name: 'Ann' }],
    ['an empty g_token', { g_token: '' }],
    ['a number', { g_token: 12345 }],
    ['not base64', { g_token: 'not base64 at all!' }],
    ['base64 of non-JSON', { g_token: base64('hello world') }],
    ['base64 of the wrong JSON', { g_token: base64(JSON.stringify({ challenge: 'x', solution: 1 })) }],
    ['the widget test-mode payload', { g_token: base64(JSON.stringify({ challenge: null, solution: null, test: true })) }],
    ['a huge string', { g_token: 'A'.repeat(100_000) }],
  ])('refuses %s with 422 and never calls the handler', async (_name, body) => {
    const { handled, app } = setup();
    const response = await app.request('/guarded', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    await expectRefused(response, BOTCHECK_MESSAGES.failed);
    expect(handled).toEqual([]);
  });
});

describe('verifyBotToken', () => {
  async function solvedParts(harness: BotcheckHarness): Promise<{ challenge: Challenge; solution: Solution }> {
    const challenge = await fetchBotChallenge(harness.app);
    return { challenge, solution: await solveFetchedChallenge(challenge) };
  }

  it('refuses a token whose signed parameters were changed (forged signature)', async () => {
    const harness = setup();
    const { challenge, solution } = await solvedParts(harness);
    const tampered = { ...challenge, parameters: { ...challenge.parameters, data: { expires: Date.now() + 365 * 86_400_000 } } };
    expect(await verifyBotToken(harness.ctx, encodeBotToken(tampered, solution))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.failed });

    const reSigned = { ...challenge, signature: 'f'.repeat(64) };
    expect(await verifyBotToken(harness.ctx, encodeBotToken(reSigned, solution))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.failed });
    // A forgery does not spend the genuine challenge.
    expect(await verifyBotToken(harness.ctx, encodeBotToken(challenge, solution))).toEqual({ ok: true });
  });

  it('refuses a challenge signed with another secret, even when correctly solved', async () => {
    const harness = setup();
    const foreign = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 1,
      deriveKey,
      keyPrefix: '0',
      hmacSignatureSecret: 'someone-elses-secret-0123456789',
      data: { expires: harness.ctx.now() + 60_000 },
    });
    const token = encodeBotToken(foreign, await solveFetchedChallenge(foreign));
    expect(await verifyBotToken(harness.ctx, token)).toEqual({ ok: false, message: BOTCHECK_MESSAGES.failed });
  });

  it('refuses a wrong solution, and the challenge is spent by the attempt', async () => {
    const harness = setup();
    const { challenge, solution } = await solvedParts(harness);
    const wrong = { ...solution, derivedKey: `${solution.derivedKey.startsWith('00') ? '01' : '00'}${solution.derivedKey.slice(2)}` };
    expect(await verifyBotToken(harness.ctx, encodeBotToken(challenge, wrong))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.failed });

    const second = await solvedParts(harness);
    const nextCounter = { ...second.solution, counter: second.solution.counter + 1 };
    expect(await verifyBotToken(harness.ctx, encodeBotToken(second.challenge, nextCounter))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.failed });
    // One attempt per challenge: the right answer after a wrong one is refused, so a challenge cannot be
    // used to make the server derive keys over and over.
    expect(await verifyBotToken(harness.ctx, encodeBotToken(challenge, solution))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.used });
  });

  it('refuses an expired token (fake clock) and accepts one right at its expiry', async () => {
    const harness = setup({ fakeClock: true });
    const late = await solvedParts(harness);
    const onTime = await solvedParts(harness);

    harness.ctx.advance(BOTCHECK_LIFETIME_MS);
    expect(await verifyBotToken(harness.ctx, encodeBotToken(onTime.challenge, onTime.solution))).toEqual({ ok: true });
    harness.ctx.advance(1);
    expect(await verifyBotToken(harness.ctx, encodeBotToken(late.challenge, late.solution))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.expired });
  });

  it('lets only one of two simultaneous uses of a token through', async () => {
    const harness = setup();
    const token = await solveBotChallenge(harness.app);
    const results = await Promise.all([verifyBotToken(harness.ctx, token), verifyBotToken(harness.ctx, token), verifyBotToken(harness.ctx, token)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it('drops spent challenges once they have expired', async () => {
    const harness = setup({ fakeClock: true });
    expect(await verifyBotToken(harness.ctx, await solveBotChallenge(harness.app))).toEqual({ ok: true });
    expect(harness.ctx.db.select().from(botcheckSpent).all()).toHaveLength(1);
    harness.ctx.advance(BOTCHECK_LIFETIME_MS + 1);
    expect(await verifyBotToken(harness.ctx, await solveBotChallenge(harness.app))).toEqual({ ok: true });
    expect(harness.ctx.db.select().from(botcheckSpent).all()).toHaveLength(1);
  });
});

describe('the secret', () => {
  it('is generated once and kept in the settings table, so a restart still accepts earlier tokens and refuses replays', async () => {
    const harness = setup();
    const token = await solveBotChallenge(harness.app);
    const replayed = await solveBotChallenge(harness.app);
    expect(await verifyBotToken(harness.ctx, replayed)).toEqual({ ok: true });
    const stored = getSetting(harness.ctx.db, 'botcheck_secret');
    expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // A restart: a new connection (and so no cached secret) on the same database file.
    const restartedDb = openDatabase(harness.ctx.config.databaseFile);
    try {
      const restarted = { ...harness.ctx, db: restartedDb };
      expect(await verifyBotToken(restarted, token)).toEqual({ ok: true });
      expect(await verifyBotToken(restarted, replayed)).toEqual({ ok: false, message: BOTCHECK_MESSAGES.used });
      expect(getSetting(restartedDb, 'botcheck_secret')).toBe(stored);
    } finally {
      restartedDb.$client.close();
    }
  });

  it('comes from BOTCHECK_SECRET when configured, and then nothing is stored', async () => {
    const secret = 'configured-secret-0123456789abcdef';
    const harness = setup({ env: { BOTCHECK_SECRET: secret } });
    const foreign = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 1,
      deriveKey,
      keyPrefix: '0',
      hmacSignatureSecret: secret,
      data: { expires: harness.ctx.now() + 60_000 },
    });
    expect(await verifyBotToken(harness.ctx, encodeBotToken(foreign, await solveFetchedChallenge(foreign)))).toEqual({ ok: true });
    expect(await verifyBotToken(harness.ctx, await solveBotChallenge(harness.app))).toEqual({ ok: true });
    expect(getSetting(harness.ctx.db, 'botcheck_secret')).toBeUndefined();
  });
});

// Issue 17, item 1: refusing a token must cost the server less than sending it costs the client.
describe('cheap refusals (issue 17, item 1)', () => {
  /** Counts key derivations made from here on; the real ones still run. */
  const countDerivations = () => vi.spyOn(botcheckKdf, 'deriveKey');
  const VERIFY_LIMIT = 20;

  it('refuses an unsolved, an out-of-range or an ill-sized solution to a signed challenge without deriving a key', async () => {
    const harness = setup();
    const derive = countDerivations();
    const bad: Solution[] = [
      { counter: 0, derivedKey: '00' },
      { counter: 2 ** 32, derivedKey: '0'.repeat(64) },
      { counter: 3, derivedKey: '0'.repeat(66) },
      // Right length, but not the prefix the solver searches for.
      { counter: 3, derivedKey: 'f'.repeat(64) },
    ];
    for (const solution of bad) {
      const challenge = await fetchBotChallenge(harness.app);
      await expectRefused(await harness.post('/guarded', { g_token: encodeBotToken(challenge, solution) }), BOTCHECK_MESSAGES.failed);
      // Spent all the same: its signature proved it ours.
      expect(await verifyBotToken(harness.ctx, encodeBotToken(challenge, solution))).toEqual({ ok: false, message: BOTCHECK_MESSAGES.used });
    }
    expect(derive).not.toHaveBeenCalled();
    expect(harness.handled).toEqual([]);
  });

  it('refuses a forged signature without deriving a key', async () => {
    const harness = setup();
    const challenge = await fetchBotChallenge(harness.app);
    const solution = await solveFetchedChallenge(challenge);
    const derive = countDerivations();
    const forged = { ...challenge, signature: 'a'.repeat(64) };
    await expectRefused(await harness.post('/guarded', { g_token: encodeBotToken(forged, solution) }), BOTCHECK_MESSAGES.failed);
    expect(derive).not.toHaveBeenCalled();
    // Not spent by a forgery: the genuine token still works.
    expect((await harness.post('/guarded', { g_token: encodeBotToken(challenge, solution) })).status).toBe(200);
  });

  it(`derives at most ${VERIFY_LIMIT} keys a minute per address, then answers 429 with Retry-After without deriving`, async () => {
    const harness = setup({ fakeClock: true });
    expect(harness.ctx.config.botcheckVerifyPerMinute).toBe(VERIFY_LIMIT);
    const wrongTokens: string[] = [];
    for (let i = 0; i <= VERIFY_LIMIT; i += 1) {
      const challenge = await fetchBotChallenge(harness.app);
      const solution = await solveFetchedChallenge(challenge);
      // Well-formed and of the right prefix, so only the derivation can tell it is wrong.
      const last = solution.derivedKey.at(-1) === '0' ? '1' : '0';
      wrongTokens.push(encodeBotToken(challenge, { ...solution, derivedKey: `${solution.derivedKey.slice(0, -1)}${last}` }));
    }
    const derive = countDerivations();
    for (const token of wrongTokens.slice(0, -1)) await expectRefused(await harness.post('/guarded', { g_token: token }), BOTCHECK_MESSAGES.failed);
    expect(derive).toHaveBeenCalledTimes(VERIFY_LIMIT);

    const refused = await harness.post('/guarded', { g_token: wrongTokens.at(-1) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(await refused.json()).toEqual({ message: 'Too many requests. Please try again in 60 seconds.' });
    expect(derive).toHaveBeenCalledTimes(VERIFY_LIMIT);

    // Another address is not affected, and the window slides.
    expect(await verifyBotToken(harness.ctx, await solveBotChallenge(harness.app), '198.51.100.9')).toEqual({ ok: true });
    harness.ctx.advance(BOTCHECK_VERIFY_WINDOW_MS);
    expect((await harness.post('/guarded', { g_token: await solveBotChallenge(harness.app) })).status).toBe(200);
  });
});
