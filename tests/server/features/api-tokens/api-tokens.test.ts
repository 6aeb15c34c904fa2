// API tokens and /api/v1/ (docs/integrations.md#api-tokens): shown once and stored hashed, scopes, expiry and
// revocation, Idempotency-Key, limits per token, cookies ignored, and the token never in a log line.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { readOutbox, linksIn } from '../../../helpers/mail.ts';
import { apiTokens, licenses, users } from '../../../../server/db/schema.ts';
import { ensureLicenseTypes } from '../../../../server/features/license-types/ensure-types.ts';

let ctx: TestContext;
let admin: LoggedInClient;

function setUp(env: Record<string, string> = {}) {
  ctx = createTestContext({ fakeClock: true, env });
}

beforeEach(async () => {
  setUp();
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(ctx.app, 'admin@example.com');
});
afterEach(() => ctx.cleanup());

async function newToken(scopes: string[], expiresDays = 30) {
  const response = await admin.request('POST', '/api/admin/api-tokens', { name: 'Shop', scopes, expires_days: expiresDays });
  expect(response.status).toBe(201);
  return (await response.json()) as { token: string; api_token: { id: number; scopes: string[]; expires_at: string | null } };
}

function call(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return ctx.app.request(path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

describe('API tokens', () => {
  it('shows the dct_ token once, stores only its hash, and lists it without the token', async () => {
    const { token, api_token: created } = await newToken(['users:read']);
    expect(token).toMatch(/^dct_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ scopes: ['users:read'], last_used_at: null });
    const stored = ctx.db.select().from(apiTokens).all();
    expect(JSON.stringify(stored)).not.toContain(token);
    const list = await (await admin.request('GET', '/api/admin/api-tokens')).text();
    expect(list).not.toContain(token);
    expect(JSON.parse(list)).toMatchObject({ api_tokens: [{ id: created.id, name: 'Shop' }] });
  });

  it('refuses unknown scopes and bad expiry with the field', async () => {
    const bad = await admin.request('POST', '/api/admin/api-tokens', { name: 'x', scopes: ['users:admin'], expires_days: -1 });
    expect(bad.status).toBe(422);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors).sort()).toEqual(['expires_days', 'scopes']);
  });

  it('answers 401 without a token, with an unknown, expired or revoked one; 403 SCOPE_MISSING for a missing scope', async () => {
    expect((await call(null, 'GET', '/api/v1/releases')).status).toBe(401);
    expect((await call('dct_not-a-real-token', 'GET', '/api/v1/releases')).status).toBe(401);
    const { token } = await newToken(['releases:read'], 1);
    expect((await call(token, 'GET', '/api/v1/releases')).status).toBe(200);
    const missing = await call(token, 'GET', '/api/v1/users?email=a@example.com');
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ code: 'SCOPE_MISSING', scope: 'users:read' });
    ctx.advance(86_400_000);
    const expired = await call(token, 'GET', '/api/v1/releases');
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    admin = await login(ctx.app, 'admin@example.com');
    const { token: second, api_token: row } = await newToken(['releases:read']);
    expect((await call(second, 'GET', '/api/v1/releases')).status).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/api-tokens/${row.id}`)).status).toBe(200);
    expect((await call(second, 'GET', '/api/v1/releases')).status).toBe(401);
  });

  it('ignores cookies: an admin session is no token', async () => {
    const response = await admin.request('GET', '/api/v1/releases');
    expect(response.status).toBe(401);
  });

  it('limits calls per token with Retry-After', async () => {
    ctx.cleanup();
    setUp({ API_TOKEN_REQUESTS_PER_MINUTE: '3' });
    await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
    admin = await login(ctx.app, 'admin@example.com');
    const { token } = await newToken(['releases:read']);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(token, 'GET', '/api/v1/releases')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call(token, 'GET', '/api/v1/releases');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Another token is counted on its own.
    const { token: other } = await newToken(['releases:read']);
    expect((await call(other, 'GET', '/api/v1/releases')).status).toBe(200);
  });

  it('logs every call with the token id, never the token', async () => {
    ctx.cleanup();
    setUp({ LOG_LEVEL: 'info' });
    await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
    admin = await login(ctx.app, 'admin@example.com');
    const { token, api_token: row } = await newToken(['users:read']);
    await call(token, 'GET', '/api/v1/users?email=admin@example.com');
    expect(ctx.logLines.join('\n')).not.toContain(token);
    expect(ctx.logLines.some((line) => line.includes('"api_token_id":' + row.id) && line.includes('/api/v1/users'))).toBe(true);
  });
});

describe('/api/v1/users', () => {
  it('finds a user by address and creates one, verified and mailed a link to choose a password; 409 when taken', async () => {
    const { token } = await newToken(['users:read', 'users:write']);
    const found = (await (await call(token, 'GET', '/api/v1/users?email=ADMIN@example.com')).json()) as { users: Record<string, unknown>[] };
    expect(found.users).toHaveLength(1);
    expect(found.users[0]).not.toHaveProperty('password_hash');
    const created = await call(token, 'POST', '/api/v1/users', { email: 'Customer@Example.com', name: 'New Customer' });
    expect(created.status).toBe(201);
    const user = ((await created.json()) as { user: { email: string; email_verified_at: string | null } }).user;
    expect(user.email_verified_at).not.toBeNull();
    const mail = readOutbox(ctx.config.outboxDir).find((message) => message.to.toLowerCase() === 'customer@example.com');
    expect(mail?.subject).toContain('Your account is ready');
    expect(linksIn(mail?.text).some((link) => link.includes('/reset-pasword/form?token='))).toBe(true);
    const again = await call(token, 'POST', '/api/v1/users', { email: 'customer@example.com', name: 'Again' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'USER_EXISTS' });
    const invalid = await call(token, 'POST', '/api/v1/users', { email: 'not an address' });
    expect(invalid.status).toBe(422);
    expect(Object.keys(((await invalid.json()) as { errors: object }).errors).sort()).toEqual(['email', 'name']);
  });

  it('honours Idempotency-Key: the same request answers the first answer and creates nothing; another body answers 422', async () => {
    const { token } = await newToken(['users:write']);
    const body = { email: 'once@example.com', name: 'Once' };
    const first = await call(token, 'POST', '/api/v1/users', body, { 'Idempotency-Key': 'order-1001' });
    const second = await call(token, 'POST', '/api/v1/users', body, { 'Idempotency-Key': 'order-1001' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(
      ctx.db
        .select()
        .from(users)
        .all()
        .filter((row) => row.email === 'once@example.com'),
    ).toHaveLength(1);
    const other = await call(token, 'POST', '/api/v1/users', { email: 'twice@example.com', name: 'Twice' }, { 'Idempotency-Key': 'order-1001' });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // After 24 hours the key may be used again.
    ctx.advance(24 * 3_600_000 + 1);
    const later = await call(token, 'POST', '/api/v1/users', { email: 'twice@example.com', name: 'Twice' }, { 'Idempotency-Key': 'order-1001' });
    expect(later.status).toBe(201);
  });
});

describe('/api/v1/licenses', () => {
  it('grants a license by type name to a user by address (owner mailed, key answered, note in its history), then suspends and extends it', async () => {
    ensureLicenseTypes(ctx.db);
    const owner = await createUser(ctx, { email: 'buyer@example.com' });
    const { token } = await newToken(['licenses:read', 'licenses:write']);
    const granted = await call(
      token,
      'POST',
      '/api/v1/licenses',
      { email: 'buyer@example.com', license_type: 'perpetual', max_machines: 2, entitlements: ['PRO'], note: 'order 1001' },
      { 'Idempotency-Key': 'order-1001' },
    );
    expect(granted.status).toBe(201);
    const license = ((await granted.json()) as { license: { id: number; key: string; max_machines: number; entitlements: string[] } }).license;
    expect(license).toMatchObject({ max_machines: 2 });
    expect(license.entitlements).toContain('PRO');
    expect(license.key).toMatch(/^DCTL-/);
    expect(readOutbox(ctx.config.outboxDir).some((mail) => mail.to === 'buyer@example.com' && mail.text?.includes(license.key))).toBe(true);
    // The same order again creates nothing.
    const again = await call(
      token,
      'POST',
      '/api/v1/licenses',
      { email: 'buyer@example.com', license_type: 'perpetual', max_machines: 2, entitlements: ['PRO'], note: 'order 1001' },
      { 'Idempotency-Key': 'order-1001' },
    );
    expect(again.status).toBe(201);
    const listed = (await (await call(token, 'GET', `/api/v1/licenses?user_id=${owner.id}`)).json()) as { licenses: { id: number }[] };
    expect(listed.licenses.map((row) => row.id)).toEqual([license.id]);

    const suspended = await call(token, 'PATCH', `/api/v1/licenses/${license.id}`, { suspended: true, max_machines: 4 });
    expect(suspended.status).toBe(200);
    expect(((await suspended.json()) as { license: { suspended: number; max_machines: number } }).license).toMatchObject({ suspended: 1, max_machines: 4 });
    const resumed = await call(token, 'PATCH', `/api/v1/licenses/${license.id}`, { suspended: false });
    expect(((await resumed.json()) as { license: { suspended: number } }).license).toMatchObject({ suspended: 0 });
    // A trial's end moves to the date given, counted in whole days from its activation.
    const trial = await call(token, 'POST', '/api/v1/licenses', { user_id: owner.id, license_type: 'trial', expire_days: 14 });
    const trialId = ((await trial.json()) as { license: { id: number; expire: number } }).license.id;
    const later = new Date(ctx.now() + 60 * 86_400_000).toISOString();
    const extended = await call(token, 'PATCH', `/api/v1/licenses/${trialId}`, { expires_at: later });
    expect(extended.status).toBe(200);
    expect(((await extended.json()) as { license: { expire: number } }).license.expire).toBe(60);
    expect((await call(token, 'PATCH', '/api/v1/licenses/999999', { suspended: true })).status).toBe(404);
  });

  it('refuses an unknown type or user and bad terms with the field, creating nothing', async () => {
    ensureLicenseTypes(ctx.db);
    await createUser(ctx, { email: 'buyer@example.com' });
    const { token } = await newToken(['licenses:write']);
    const unknownType = await call(token, 'POST', '/api/v1/licenses', { email: 'buyer@example.com', license_type: 'Platinum' });
    expect(unknownType.status).toBe(422);
    expect(Object.keys(((await unknownType.json()) as { errors: object }).errors)).toEqual(['license_type']);
    const unknownUser = await call(token, 'POST', '/api/v1/licenses', { email: 'nobody@example.com', license_type: 'perpetual' });
    expect(Object.keys(((await unknownUser.json()) as { errors: object }).errors)).toEqual(['email']);
    const badTerms = await call(token, 'POST', '/api/v1/licenses', { license_type: 'perpetual', entitlements: ['lower'], maintenance_until: 'soon' });
    expect(badTerms.status).toBe(422);
    expect(Object.keys(((await badTerms.json()) as { errors: object }).errors).sort()).toEqual(['entitlements', 'maintenance_until', 'user_id']);
    expect(ctx.db.select().from(licenses).all()).toEqual([]);
    const readOnly = (await newToken(['licenses:read'])).token;
    expect((await call(readOnly, 'POST', '/api/v1/licenses', { email: 'buyer@example.com', license_type: 'perpetual' })).status).toBe(403);
  });
});
