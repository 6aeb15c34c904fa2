// GET /api/user/sessions, DELETE /api/user/sessions/{id}, POST /api/user/sessions/revoke-others
// (docs/product/accounts.md#sessions): the list names sessions by a public id that cannot sign in, marks the
// asking browser's, reads browser and system from the User-Agent; an ended session answers 401 at once.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionCookieName } from '../../../../server/auth/cookies.ts';
import { LAST_ACTIVE_RESOLUTION_MS } from '../../../../server/auth/sessions.ts';
import { sessions } from '../../../../server/db/schema.ts';
import { createClient, createUser, login, type TestClient } from '../../../helpers/auth.ts';
import { CHROME_LINUX, SAFARI_IPHONE } from '../../../helpers/user-agents.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

interface SessionItem {
  id: string;
  current: boolean;
  browser: string | null;
  system: string | null;
  ip: string | null;
  created_at: string;
  last_active_at: string;
}

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true });
});
afterEach(() => ctx.cleanup());

async function listOf(client: TestClient): Promise<SessionItem[]> {
  const response = await client.request('GET', '/api/user/sessions');
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: SessionItem[] }).sessions;
}

async function userStatus(client: TestClient): Promise<number> {
  return (await client.request('GET', '/api/user')).status;
}

describe('GET /api/user/sessions', () => {
  it('lists every session of the user, this one first and marked, with browser, system and times', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const phone = await login(ctx.app, 'ann@example.test', undefined, { userAgent: SAFARI_IPHONE });
    ctx.advance(5 * 60_000);
    const laptop = await login(ctx.app, 'ann@example.test', undefined, { userAgent: CHROME_LINUX });

    const list = await listOf(laptop);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ current: true, browser: 'Chrome 131', system: 'Linux', created_at: new Date(ctx.now()).toISOString() });
    expect(list[1]).toMatchObject({ current: false, browser: 'Safari 17', system: 'iOS 17.1', created_at: new Date(ctx.now() - 5 * 60_000).toISOString() });
    expect(list.map((item) => item.last_active_at)).toEqual(list.map((item) => item.created_at));
    // The other browser sees the same two, with itself as the current one.
    expect((await listOf(phone)).map((item) => [item.id, item.current])).toEqual([
      [list[1]?.id, true],
      [list[0]?.id, false],
    ]);
  });

  it('names sessions by a random public id that is neither the token nor its hash, and cannot sign in', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const client = await login(ctx.app, 'ann@example.test');
    const [item] = await listOf(client);
    const row = ctx.db.select().from(sessions).get();
    const token = client.cookies.get(sessionCookieName(ctx.config)) ?? '';
    expect(token).toHaveLength(43);
    expect(item?.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(item?.id).toBe(row?.public_id);
    expect([row?.id, token]).not.toContain(item?.id);
    expect(JSON.stringify(await listOf(client))).not.toContain(row?.id ?? 'never');
    // The public id as a session cookie is no session.
    const forger = createClient(ctx.app);
    for (const [name, value] of client.cookies) forger.cookies.set(name, value);
    forger.cookies.set(sessionCookieName(ctx.config), item?.id ?? '');
    expect(await userStatus(forger)).toBe(401);
  });

  it('refreshes last active at most once a minute, not on every request', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const client = await login(ctx.app, 'ann@example.test');
    const signedIn = ctx.now();
    ctx.advance(LAST_ACTIVE_RESOLUTION_MS - 1);
    await userStatus(client);
    expect(ctx.db.select().from(sessions).get()?.last_active_at).toBe(signedIn);
    ctx.advance(1);
    await userStatus(client);
    expect(ctx.db.select().from(sessions).get()?.last_active_at).toBe(signedIn + LAST_ACTIVE_RESOLUTION_MS);
    expect((await listOf(client))[0]?.last_active_at).toBe(new Date(signedIn + LAST_ACTIVE_RESOLUTION_MS).toISOString());
  });

  it('gives a session made before public ids existed one on its next request', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const client = await login(ctx.app, 'ann@example.test');
    ctx.db.update(sessions).set({ public_id: '', last_active_at: 0 }).run();
    const [item] = await listOf(client);
    expect(item?.id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(item?.current).toBe(true);
  });

  it('does not list expired sessions, nor other users’ sessions', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    await createUser(ctx, { email: 'bob@example.test' });
    const ann = await login(ctx.app, 'ann@example.test');
    await login(ctx.app, 'bob@example.test');
    await login(ctx.app, 'ann@example.test');
    const [, other] = await listOf(ann);
    ctx.db
      .update(sessions)
      .set({ expires_at: ctx.now() - 1 })
      .where(eq(sessions.public_id, other?.id ?? ''))
      .run();
    expect((await listOf(ann)).map((item) => item.current)).toEqual([true]);
  });

  it('answers 401 without a session', async () => {
    expect((await createClient(ctx.app).request('GET', '/api/user/sessions')).status).toBe(401);
  });
});

describe('DELETE /api/user/sessions/{id}', () => {
  it('ends that session: its next request answers 401 while this one goes on', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const other = await login(ctx.app, 'ann@example.test', undefined, { userAgent: SAFARI_IPHONE });
    const mine = await login(ctx.app, 'ann@example.test', undefined, { userAgent: CHROME_LINUX });
    const target = (await listOf(mine)).find((item) => !item.current);
    const response = await mine.request('DELETE', `/api/user/sessions/${target?.id}`);
    expect(response.status).toBe(204);
    expect(await userStatus(other)).toBe(401);
    expect(await userStatus(mine)).toBe(200);
    expect((await listOf(mine)).map((item) => item.current)).toEqual([true]);
  });

  it('can end the asking browser’s own session', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const mine = await login(ctx.app, 'ann@example.test');
    const [item] = await listOf(mine);
    expect((await mine.request('DELETE', `/api/user/sessions/${item?.id}`)).status).toBe(204);
    expect(await userStatus(mine)).toBe(401);
  });

  it('answers 404 for another user’s session and leaves it alone', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    await createUser(ctx, { email: 'bob@example.test' });
    const ann = await login(ctx.app, 'ann@example.test');
    const bob = await login(ctx.app, 'bob@example.test');
    const [bobs] = await listOf(bob);
    const response = await ann.request('DELETE', `/api/user/sessions/${bobs?.id}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Session not found.' });
    expect(await userStatus(bob)).toBe(200);
  });

  it('answers 404 for an unknown id, the stored hash or the token', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const ann = await login(ctx.app, 'ann@example.test');
    const row = ctx.db.select().from(sessions).get();
    const token = ann.cookies.get(sessionCookieName(ctx.config)) ?? '';
    for (const id of ['AAAAAAAAAAAAAAAA', row?.id ?? '', token]) {
      expect((await ann.request('DELETE', `/api/user/sessions/${id}`)).status).toBe(404);
    }
    expect(await userStatus(ann)).toBe(200);
  });
});

describe('POST /api/user/sessions/revoke-others', () => {
  it('ends every other session of the user and keeps this one and other users’', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    await createUser(ctx, { email: 'bob@example.test' });
    const others = [await login(ctx.app, 'ann@example.test'), await login(ctx.app, 'ann@example.test')];
    const bob = await login(ctx.app, 'bob@example.test');
    const mine = await login(ctx.app, 'ann@example.test');
    expect((await mine.request('POST', '/api/user/sessions/revoke-others')).status).toBe(204);
    for (const other of others) expect(await userStatus(other)).toBe(401);
    expect(await userStatus(mine)).toBe(200);
    expect(await userStatus(bob)).toBe(200);
    expect(await listOf(mine)).toHaveLength(1);
  });
});
