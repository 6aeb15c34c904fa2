// The browser half of the bot check against the real server half: the token src/lib/botcheck.ts makes
// (with altcha's browser solver, here on the main thread as Node has no Web Workers) must pass
// requireBotToken exactly once.
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../server/context.ts';
import { requireBotToken, BOTCHECK_MESSAGES } from '../../../server/auth/botcheck.ts';
import { botcheckRoutes } from '../../../server/features/botcheck/routes.ts';
import { BOTCHECK_UNAVAILABLE_MESSAGE, BotCheckError, solveBotCheck } from '../../../src/lib/botcheck.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext | undefined;
afterEach(() => ctx?.cleanup());

function setup() {
  ctx = createTestContext({ env: { BOTCHECK_COST: '1' } });
  const app = new Hono<AppEnv>();
  app.route('/api/botcheck', botcheckRoutes(ctx));
  app.post('/api/contact', requireBotToken(ctx), (c) => c.json({ message: 'Message sent.' }));
  const fetchVia = (url: string, init?: RequestInit) => Promise.resolve(app.request(url, init));
  const submit = (g_token: string) =>
    Promise.resolve(
      app.request('/api/contact', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Ann', g_token }) }),
    );
  return { fetchVia, submit };
}

describe('solveBotCheck', () => {
  it('fetches a challenge from our server and produces a g_token the server accepts once', async () => {
    const { fetchVia, submit } = setup();
    const g_token = await solveBotCheck({ fetch: fetchVia });

    const accepted = await submit(g_token);
    expect(accepted.status).toBe(200);
    const replayed = await submit(g_token);
    expect(replayed.status).toBe(422);
    expect(await replayed.json()).toMatchObject({ message: BOTCHECK_MESSAGES.used });
  });

  it('asks only for our own challenge URL', async () => {
    const { fetchVia } = setup();
    const requested: string[] = [];
    await solveBotCheck({ fetch: (url, init) => (requested.push(url), fetchVia(url, init)) });
    expect(requested).toEqual(['/api/botcheck/challenge']);
  });

  it('fails with a clear message when the challenge cannot be fetched', async () => {
    const failing = () => Promise.resolve(new Response('{"message":"Server error, please try again later!"}', { status: 500 }));
    await expect(solveBotCheck({ fetch: failing })).rejects.toThrow(BotCheckError);
    await expect(solveBotCheck({ fetch: failing })).rejects.toThrow(BOTCHECK_UNAVAILABLE_MESSAGE);
    await expect(solveBotCheck({ fetch: () => Promise.reject(new TypeError('Failed to fetch')) })).rejects.toThrow(BOTCHECK_UNAVAILABLE_MESSAGE);
  });
});
