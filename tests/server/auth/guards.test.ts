// Route guards: 401 without a session, 403 for the wrong role, on a tiny app mounted behind the real
// session middleware, and on the real GET /api/user.
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../server/context.ts';
import { loadSession } from '../../../server/auth/session-middleware.ts';
import { guardedUser, requireAdmin, requireUser, requireVerifiedUser } from '../../../server/auth/guards.ts';
import { createUser, login } from '../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

type Who = 'anonymous' | 'unverified' | 'user' | 'admin';

let ctx: TestContext;
let guarded: Hono<AppEnv>;
const cookieOf: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  ctx = createTestContext();
  guarded = new Hono<AppEnv>();
  guarded.use('*', loadSession(ctx));
  guarded.get('/user', requireUser, (c) => c.json({ ok: true }));
  guarded.get('/verified', requireVerifiedUser, (c) => c.json({ ok: true }));
  guarded.get('/admin', requireAdmin, (c) => c.json({ ok: true }));
  // The handlers' side: the guarded user by name, and a route that forgot its guard.
  guarded.get('/me', requireUser, (c) => c.json({ email: guardedUser(c.get('user')).email }));
  guarded.get('/unguarded', (c) => c.json({ email: guardedUser(c.get('user')).email }));

  await createUser(ctx, { email: 'unverified@example.test', verified: false });
  await createUser(ctx, { email: 'user@example.test' });
  await createUser(ctx, { email: 'admin@example.test', role: 'admin' });
  cookieOf.unverified = (await login(ctx.app, 'unverified@example.test')).cookieHeader;
  cookieOf.user = (await login(ctx.app, 'user@example.test')).cookieHeader;
  cookieOf.admin = (await login(ctx.app, 'admin@example.test')).cookieHeader;
});
afterAll(() => ctx.cleanup());

const expected: Record<'/user' | '/verified' | '/admin', Record<Who, number>> = {
  '/user': { anonymous: 401, unverified: 200, user: 200, admin: 200 },
  '/verified': { anonymous: 401, unverified: 403, user: 200, admin: 200 },
  '/admin': { anonymous: 401, unverified: 403, user: 403, admin: 200 },
};

describe('guard matrix', () => {
  for (const [path, byWho] of Object.entries(expected)) {
    for (const [who, status] of Object.entries(byWho) as [Who, number][]) {
      it(`${path} as ${who} → ${status}`, async () => {
        const cookie = cookieOf[who];
        const response = await guarded.request(path, { headers: cookie ? { Cookie: cookie } : {} });
        expect(response.status).toBe(status);
        if (status !== 200) expect(Object.keys((await response.json()) as object)).toEqual(['message']);
      });
    }
  }

  it('says why in the messages the client shows', async () => {
    expect(await (await guarded.request('/user')).json()).toEqual({ message: 'Unauthenticated.' });
    expect(await (await guarded.request('/verified')).json()).toEqual({ message: 'You must be logged in to use download' });
    expect(await (await guarded.request('/verified', { headers: { Cookie: cookieOf.unverified ?? '' } })).json()).toEqual({
      message: 'Only verified user can use download!',
    });
  });
});

describe('guardedUser', () => {
  it('gives a guarded route its user, and refuses (500) a route whose guard is missing rather than treat it as open', async () => {
    const me = await guarded.request('/me', { headers: { Cookie: cookieOf.user ?? '' } });
    expect(await me.json()).toEqual({ email: 'user@example.test' });
    expect((await guarded.request('/unguarded')).status).toBe(500);
    expect(() => guardedUser(null)).toThrow(/guarded route has no user/);
  });
});

describe('GET /api/user', () => {
  it('answers 401 Unauthenticated. for an anonymous visitor', async () => {
    const response = await ctx.app.request('/api/user');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Unauthenticated.' });
  });

  for (const who of ['unverified', 'user', 'admin'] as const) {
    it(`answers the account of the ${who}`, async () => {
      const response = await ctx.app.request('/api/user', { headers: { Cookie: cookieOf[who] ?? '' } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { user: { email: string; role: string }; licenses: unknown[] };
      expect(body.user.email).toBe(`${who}@example.test`);
      expect(body.user.role).toBe(who === 'admin' ? 'admin' : 'user');
      expect(body.licenses).toEqual([]);
    });
  }
});
