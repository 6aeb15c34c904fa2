// The address 'Request Failed!' names (docs/product/accounts.md#license-request): SUPPORT_EMAIL, else the first admin's who can
// sign in, carried by the session answer (login and GET /api/user) so the dashboard needs no request for it.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login } from '../../../helpers/auth.ts';
import { solveBotChallenge } from '../../../helpers/botcheck.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { accountPayload, SUPPORT_EMAIL_REUSE_MS } from '../../../../server/features/sessions/present.ts';

let ctx: TestContext | undefined;
afterEach(() => {
  ctx?.cleanup();
  ctx = undefined;
});

async function supportEmailSeenBy(env: Record<string, string>, admins: Array<{ email: string; banned?: boolean }>): Promise<string | null> {
  ctx?.cleanup();
  ctx = createTestContext({ env });
  for (const admin of admins) await createUser(ctx, { email: admin.email, role: 'admin', banned: admin.banned });
  await createUser(ctx, { email: 'ann@example.test' });
  const ann = await login(ctx.app, 'ann@example.test');
  return ((await (await ann.request('GET', '/api/user')).json()) as { support_email: string | null }).support_email;
}

describe('support_email of the session answer', () => {
  it('is SUPPORT_EMAIL when set', async () => {
    expect(await supportEmailSeenBy({ SUPPORT_EMAIL: 'help@example.test' }, [{ email: 'boss@example.test' }])).toBe('help@example.test');
  });

  it('is otherwise the first admin who can sign in, and null without one', async () => {
    const admins = [{ email: 'gone@example.test', banned: true }, { email: 'boss@example.test' }, { email: 'later@example.test' }];
    expect(await supportEmailSeenBy({}, admins)).toBe('boss@example.test');
    expect(await supportEmailSeenBy({}, [])).toBeNull();
  });

  it('comes with the login answer too', async () => {
    ctx = createTestContext({ env: { SUPPORT_EMAIL: 'help@example.test' } });
    await createUser(ctx, { email: 'ann@example.test' });
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', {
      email: 'ann@example.test',
      password: DEFAULT_TEST_PASSWORD,
      remember_me: false,
      g_token: await solveBotChallenge(ctx.app),
    });
    expect(await response.json()).toMatchObject({ support_email: 'help@example.test', inbox_unread: null });
  });
});

describe('the first admin as support address, read at most once a minute', () => {
  it('keeps the address read for SUPPORT_EMAIL_REUSE_MS, then reads the admins again', async () => {
    ctx = createTestContext({});
    const boss = await createUser(ctx, { email: 'boss@example.test', role: 'admin' });
    const ann = await createUser(ctx, { email: 'ann@example.test' });
    const at = Date.parse('2026-11-27T12:00:00Z');
    const answer = (now: number) => accountPayload(ctx!, ann, now, { twoFactorRequired: false }).support_email;
    expect(answer(at)).toBe('boss@example.test');
    // The admin is banned: the address read a moment ago stands until the minute is over.
    ctx.db.$client.prepare('update users set is_banned = 1 where id = ?').run(boss.id);
    expect(answer(at + SUPPORT_EMAIL_REUSE_MS - 1)).toBe('boss@example.test');
    expect(answer(at + SUPPORT_EMAIL_REUSE_MS)).toBeNull();
    // A clock that went back reads again rather than trusting an address from "the future".
    await createUser(ctx, { email: 'later@example.test', role: 'admin' });
    expect(answer(at)).toBe('later@example.test');
  });
});
