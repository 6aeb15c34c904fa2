// "Require two-factor for admins" (docs/product/accounts.md#two-factor-sign-in): on by default in production,
// off elsewhere; while on, an admin without two-factor is refused by every admin API with a clear message,
// yet can still enrol; the setting is the admins' to change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE } from '../../../../server/auth/guards.ts';
import { getSecuritySettings } from '../../../../server/auth/two-factor-policy.ts';
import { loadConfig } from '../../../../server/env.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { codeFor, enrollTwoFactor, passwordStep } from '../../../helpers/two-factor.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { FIXTURE, insertContentFixture } from '../../../helpers/content-fixture.ts';

const ADMIN = 'boss@example.test';

let ctx: TestContext;
let admin: LoggedInClient;
let userId: number;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: ADMIN, role: 'admin' });
  userId = (await createUser(ctx, { email: 'ann@example.test' })).id;
  admin = await login(ctx.app, ADMIN);
});
afterEach(() => ctx.cleanup());

const requireForAdmins = (client: LoggedInClient, value: 0 | 1) =>
  client.request('PUT', '/api/admin/security-settings', { require_two_factor_for_admins: value });

describe('require two-factor for admins', () => {
  it('defaults to on in production and off otherwise', () => {
    expect(getSecuritySettings(ctx.db, ctx.config).require_two_factor_for_admins).toBe(0);
    const production = loadConfig({ ...ctx.env, NODE_ENV: 'production', SITE_URL: 'https://example.test' });
    expect(getSecuritySettings(ctx.db, production).require_two_factor_for_admins).toBe(1);
  });

  it('an admin cannot turn it on before enrolling (no self lock-out), and can after', async () => {
    const refused = await requireForAdmins(admin, 1);
    expect(refused.status).toBe(422);
    await enrollTwoFactor(admin, ctx.now);
    const saved = await requireForAdmins(admin, 1);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ require_two_factor_for_admins: 1 });
    expect(await (await admin.request('GET', '/api/admin/security-settings')).json()).toEqual({ require_two_factor_for_admins: 1 });
  });

  it('while on, an admin without two-factor gets 403 from admin APIs but can still enrol, then is let in', async () => {
    await createUser(ctx, { email: 'second@example.test', role: 'admin' });
    const enrolled = await login(ctx.app, 'second@example.test');
    await enrollTwoFactor(enrolled, ctx.now);
    expect((await requireForAdmins(enrolled, 1)).status).toBe(200);

    // The first admin's session answers its state and is refused by admin calls.
    const me = (await (await admin.request('GET', '/api/user')).json()) as { user: { two_factor_required: boolean; role: string } };
    expect(me.user.two_factor_required).toBe(true);
    expect(me.user.role).toBe('admin');
    for (const [method, path, body] of [
      ['GET', '/api/admin/users', undefined],
      ['GET', '/api/admin/security-settings', undefined],
      ['PUT', '/api/admin/security-settings', { require_two_factor_for_admins: 0 }],
      ['GET', '/api/license/getAll', undefined],
      ['PUT', `/api/user/update/${userId}`, { name: 'Changed' }],
    ] as const) {
      const response = await admin.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(((await response.json()) as { message: string }).message).toBe(ADMIN_TWO_FACTOR_REQUIRED_MESSAGE);
    }

    const { secret } = await enrollTwoFactor(admin, ctx.now);
    expect((await admin.request('GET', '/api/admin/users')).status).toBe(200);

    // And the next login, with the code, says nothing is required any more.
    ctx.advance(30_000);
    const { client } = await passwordStep(ctx.app, ADMIN);
    const done = (await (await client.request('POST', '/api/auth/two-factor', { code: codeFor(secret, ctx.now()) })).json()) as {
      user: { two_factor_required: boolean };
    };
    expect(done.user.two_factor_required).toBe(false);
  });

  it('holds back every admin power, not only the admin routes: no unpublished posts until enrolled', async () => {
    insertContentFixture(ctx.db);
    const drafts = async () => JSON.stringify(await (await admin.request('GET', '/api/news/getposts')).json()).includes(FIXTURE.unpublishedPost);
    expect(await drafts()).toBe(true);
    await createUser(ctx, { email: 'second@example.test', role: 'admin' });
    const enrolled = await login(ctx.app, 'second@example.test');
    await enrollTwoFactor(enrolled, ctx.now);
    await requireForAdmins(enrolled, 1);
    expect(await drafts()).toBe(false);
    await enrollTwoFactor(admin, ctx.now);
    expect(await drafts()).toBe(true);
  });

  it('a login answer tells an admin who must enrol', async () => {
    await createUser(ctx, { email: 'second@example.test', role: 'admin' });
    const enrolled = await login(ctx.app, 'second@example.test');
    await enrollTwoFactor(enrolled, ctx.now);
    await requireForAdmins(enrolled, 1);
    const again = await login(ctx.app, ADMIN);
    expect(again.user.two_factor_required).toBe(true);
    expect((await again.request('GET', '/api/admin/users')).status).toBe(403);
  });

  it('regular users are not affected', async () => {
    await enrollTwoFactor(admin, ctx.now);
    await requireForAdmins(admin, 1);
    const ann = await login(ctx.app, 'ann@example.test');
    expect(ann.user.two_factor_required).toBe(false);
    expect((await ann.request('GET', '/api/user')).status).toBe(200);
  });
});
