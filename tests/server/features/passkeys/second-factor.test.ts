// A passkey as the login's second step (docs/product/accounts.md#two-factor-sign-in), and as what meets "two-factor
// required for admins" (docs/decisions/0043-passkeys.md).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveSecuritySettings } from '../../../../server/auth/two-factor-policy.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { authenticatorFor, type SoftwareAuthenticator } from '../../../helpers/passkey-authenticator.ts';
import { addPasskey } from '../../../helpers/passkeys.ts';
import { enrollTwoFactor, passwordStep } from '../../../helpers/two-factor.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const EMAIL = 'ann@example.test';

let ctx: TestContext;
let authenticator: SoftwareAuthenticator;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: EMAIL, name: 'Ann' });
  const ann = await login(ctx.app, EMAIL);
  authenticator = authenticatorFor(ctx.config.siteUrl);
  await enrollTwoFactor(ann, ctx.now);
  expect((await addPasskey(ann, authenticator)).status).toBe(201);
});
afterEach(() => ctx.cleanup());

async function pendingWithOptions() {
  const { client, response } = await passwordStep(ctx.app, EMAIL);
  expect(await response.json()).toEqual({ two_factor: true });
  const options = await client.request('POST', '/api/auth/two-factor/passkey-options');
  expect(options.status).toBe(200);
  return { client, options: (await options.json()) as { challenge: string; allowCredentials: { id: string }[] } };
}

describe('POST /api/auth/two-factor/passkey-options', () => {
  it('needs the pending login of this browser', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL);
    client.cookies.delete('two_factor');
    expect((await client.request('POST', '/api/auth/two-factor/passkey-options')).status).toBe(401);
  });

  it('allows exactly that user’s passkeys', async () => {
    const { options } = await pendingWithOptions();
    expect(options.allowCredentials.map((credential) => credential.id)).toEqual([authenticator.credentials[0]?.id.toString('base64url')]);
  });

  it('answers 422 when the user has no passkey', async () => {
    await createUser(ctx, { email: 'bob@example.test' });
    await enrollTwoFactor(await login(ctx.app, 'bob@example.test'), ctx.now);
    const { client } = await passwordStep(ctx.app, 'bob@example.test');
    expect((await client.request('POST', '/api/auth/two-factor/passkey-options')).status).toBe(422);
  });
});

describe('POST /api/auth/two-factor with passkey_response', () => {
  it('completes the login like a code does', async () => {
    const { client, options } = await pendingWithOptions();
    const response = await client.request('POST', '/api/auth/two-factor', { passkey_response: authenticator.assert(options) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
    expect((await client.request('GET', '/api/user')).status).toBe(200);
  });

  it('refuses a wrong origin, a replayed answer, and another user’s passkey, each costing a try', async () => {
    const { client, options } = await pendingWithOptions();
    const wrong = await client.request('POST', '/api/auth/two-factor', { passkey_response: authenticator.assert(options, { origin: 'https://evil.example' }) });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.passkey_response).toEqual(['The passkey could not be verified.']);
    // The challenge was spent by the failed answer: the same one again cannot pass.
    expect((await client.request('POST', '/api/auth/two-factor', { passkey_response: authenticator.assert(options) })).status).toBe(422);

    await createUser(ctx, { email: 'bob@example.test' });
    const bob = await login(ctx.app, 'bob@example.test');
    const bobs = authenticatorFor(ctx.config.siteUrl);
    await addPasskey(bob, bobs);
    const fresh = await client.request('POST', '/api/auth/two-factor/passkey-options');
    const { challenge } = (await fresh.json()) as { challenge: string };
    expect((await client.request('POST', '/api/auth/two-factor', { passkey_response: bobs.assert({ challenge }) })).status).toBe(422);
    expect((await client.request('GET', '/api/user')).status).toBe(401);
  });

  it('refuses a body with both a code and a passkey answer', async () => {
    const { client, options } = await pendingWithOptions();
    expect((await client.request('POST', '/api/auth/two-factor', { code: '123456', passkey_response: authenticator.assert(options) })).status).toBe(422);
  });
});

describe('two-factor required for admins', () => {
  it('is met by a passkey', async () => {
    await createUser(ctx, { email: 'admin@example.test', role: 'admin' });
    saveSecuritySettings(ctx.db, { require_two_factor_for_admins: 1 });
    const admin = await login(ctx.app, 'admin@example.test');
    expect((await admin.request('GET', '/api/admin/security-settings')).status).toBe(403);
    expect((await addPasskey(admin, authenticatorFor(ctx.config.siteUrl))).status).toBe(201);
    expect((await admin.request('GET', '/api/admin/security-settings')).status).toBe(200);
    const user = (await (await admin.request('GET', '/api/user')).json()) as { user: { two_factor_required: boolean } };
    expect(user.user.two_factor_required).toBe(false);
  });
});
