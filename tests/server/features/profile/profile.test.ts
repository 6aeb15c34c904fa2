// GET /api/user/request-license/{userId} and PUT /api/user/update/{id}: the user's own record only, and
// never the fields that grant something.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenses, licenseTypes, users } from '../../../../server/db/schema.ts';
import { createClient, createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const ADMIN_EMAIL = 'admin@example.test';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ env: { ADMIN_EMAIL, ADMIN_PASSWORD: 'admin-password-123' } });
});
afterEach(() => ctx.cleanup());

const stored = (id: number) => ctx.db.select().from(users).where(eq(users.id, id)).get();

describe('GET /api/user/request-license/{userId}', () => {
  let ann: LoggedInClient;
  beforeEach(async () => {
    await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
    ann = await login(ctx.app, 'ann@example.test');
  });

  it('sets license_request, mails the admin and the user, and answers the public user', async () => {
    const response = await ann.request('GET', `/api/user/request-license/${ann.user.id}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({ id: ann.user.id, email: 'ann@example.test', license_request: 1 });
    expect(body.user).not.toHaveProperty('password_hash');
    expect(stored(ann.user.id)?.license_request).toBe(1);

    const adminMail = latestMailTo(ctx.config.outboxDir, ADMIN_EMAIL);
    expect(adminMail?.subject).toContain('License request from Ann');
    expect(adminMail?.text).toContain('ann@example.test');
    expect(latestMailTo(ctx.config.outboxDir, 'ann@example.test')?.subject).toContain('Your license request was received');
  });

  it('is idempotent: asking again answers the same and sends no second round of mails', async () => {
    await ann.request('GET', `/api/user/request-license/${ann.user.id}`);
    const again = await ann.request('GET', `/api/user/request-license/${ann.user.id}`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { user: { license_request: number } }).user.license_request).toBe(1);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(2);
  });

  it('refuses another user’s id with 403 and changes nothing', async () => {
    const bob = await createUser(ctx, { email: 'bob@example.test' });
    for (const id of [String(bob.id), '999', 'abc']) {
      const response = await ann.request('GET', `/api/user/request-license/${id}`);
      expect(response.status).toBe(403);
    }
    expect(stored(bob.id)?.license_request).toBe(0);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
  });

  it('refuses an admin asking on another user’s behalf too', async () => {
    const bob = await createUser(ctx, { email: 'bob@example.test' });
    await createUser(ctx, { email: 'boss@example.test', role: 'admin' });
    const admin = await login(ctx.app, 'boss@example.test');
    expect((await admin.request('GET', `/api/user/request-license/${bob.id}`)).status).toBe(403);
  });

  it('answers 401 without a session', async () => {
    expect((await createClient(ctx.app).request('GET', `/api/user/request-license/${ann.user.id}`)).status).toBe(401);
  });

  it('refuses a request without X-Requested-With (a cross-site link cannot trigger it)', async () => {
    const response = await ann.request('GET', `/api/user/request-license/${ann.user.id}`, undefined, { headers: { 'X-Requested-With': null } });
    expect(response.status).toBe(403);
    expect(stored(ann.user.id)?.license_request).toBe(0);
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
  });

  it('refuses a user who already has an active license with 422', async () => {
    const trial = ctx.db.insert(licenseTypes).values({ name: 'trial' }).returning().get();
    ctx.db.insert(licenses).values({ license_type_id: trial.id, user_id: ann.user.id, active: 1 }).run();
    const response = await ann.request('GET', `/api/user/request-license/${ann.user.id}`);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: 'You already have an active license.' });
    expect(stored(ann.user.id)?.license_request).toBe(0);
  });

  it('keeps the request when the mail cannot be sent', async () => {
    const broken = createTestContext({ env: { SMTP_URL: 'smtp://127.0.0.1:9', ADMIN_EMAIL, ADMIN_PASSWORD: 'admin-password-123' } });
    try {
      const user = await createUser(broken, { email: 'carol@example.test' });
      const carol = await login(broken.app, 'carol@example.test');
      const response = await carol.request('GET', `/api/user/request-license/${user.id}`);
      expect(response.status).toBe(200);
      expect(broken.db.select().from(users).where(eq(users.id, user.id)).get()?.license_request).toBe(1);
    } finally {
      broken.cleanup();
    }
  });
});

describe('PUT /api/user/update/{id}', () => {
  let ann: LoggedInClient;
  beforeEach(async () => {
    await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
    ann = await login(ctx.app, 'ann@example.test');
  });

  const profile = {
    name: ' Ann B. ',
    surname: 'Baker',
    companyName: 'Baker & Co',
    address: '1 High Street',
    postcode: 'AB1 2CD',
    county: 'Kent',
    country: 'United Kingdom',
    phone: '+44 1234 567890',
    vat: 'GB123456789',
  };

  it('updates the own profile fields, trimmed, and answers the public user', async () => {
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, profile);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({ ...profile, name: 'Ann B.', id: ann.user.id, email: 'ann@example.test' });
    expect(stored(ann.user.id)).toMatchObject({ ...profile, name: 'Ann B.' });
    const current = (await (await ann.request('GET', '/api/user')).json()) as { user: Record<string, unknown> };
    expect(current.user.companyName).toBe('Baker & Co');
  });

  it('accepts the whole user object the client sends back, protected fields unchanged', async () => {
    const whole = { ...ann.user, ...profile, surname: '' };
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, whole);
    expect(response.status).toBe(200);
    expect(stored(ann.user.id)).toMatchObject({ surname: null, companyName: 'Baker & Co', role: 'user', is_banned: 0 });
  });

  it('leaves fields that are not sent as they are', async () => {
    await ann.request('PUT', `/api/user/update/${ann.user.id}`, profile);
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, { phone: '555' });
    expect(response.status).toBe(200);
    expect(stored(ann.user.id)).toMatchObject({ name: 'Ann B.', phone: '555', vat: 'GB123456789' });
  });

  it('refuses an attempt to change the own role with 403 and changes nothing', async () => {
    const before = stored(ann.user.id);
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, { ...profile, role: 'admin' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'These fields cannot be changed here: role.' });
    expect(stored(ann.user.id)).toEqual(before);
  });

  it('refuses changes to ban state, verification, license fields, e-mail and password', async () => {
    const before = stored(ann.user.id);
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ is_banned: 1 }, 'is_banned'],
      [{ is_banned: true }, 'is_banned'],
      [{ email_verified_at: null }, 'email_verified_at'],
      [{ license_request: 1 }, 'license_request'],
      [{ license_granted: '1' }, 'license_granted'],
      [{ license: 'ABC-123' }, 'license'],
      [{ email: 'new@example.test' }, 'email'],
      [{ password: 'new-password-123' }, 'password'],
      [{ password_hash: 'x' }, 'password_hash'],
    ];
    for (const [fields, name] of attempts) {
      const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, { name: 'Changed', ...fields });
      expect(response.status, name).toBe(403);
      expect(((await response.json()) as { message: string }).message).toContain(name);
    }
    expect(stored(ann.user.id)).toEqual(before);
  });

  it('treats echoes in other spellings (false for 0, another letter case of the e-mail) as unchanged', async () => {
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, {
      is_banned: false,
      license_request: '0',
      email: 'ANN@example.test',
      vat: 'X',
    });
    expect(response.status).toBe(200);
    expect(stored(ann.user.id)).toMatchObject({ vat: 'X', email: 'ann@example.test', is_banned: 0 });
  });

  it('refuses another user’s record with 403, before looking at the fields', async () => {
    const bob = await createUser(ctx, { email: 'bob@example.test', name: 'Bob' });
    for (const body of [{ name: 'Hacked' }, { name: '' }, { role: 'admin' }]) {
      expect((await ann.request('PUT', `/api/user/update/${bob.id}`, body)).status).toBe(403);
    }
    expect((await ann.request('PUT', '/api/user/update/9999', { name: 'x' })).status).toBe(403);
    expect(stored(bob.id)?.name).toBe('Bob');
  });

  // Issue 7 widened what an admin may change on this path (role, ban, verification); those rules are tested
  // in tests/server/features/users/admin-users.test.ts. Here: an admin still edits anyone's profile fields.
  it('lets an admin edit another user’s profile fields', async () => {
    const bob = await createUser(ctx, { email: 'bob@example.test', name: 'Bob' });
    await createUser(ctx, { email: 'boss@example.test', role: 'admin' });
    const admin = await login(ctx.app, 'boss@example.test');
    expect((await admin.request('PUT', `/api/user/update/${bob.id}`, { companyName: 'Bob Ltd' })).status).toBe(200);
    expect(stored(bob.id)?.companyName).toBe('Bob Ltd');
    expect((await admin.request('PUT', `/api/user/update/${bob.id}`, { license_granted: 1 })).status).toBe(403);
    expect(stored(bob.id)?.license_granted).toBe(0);
    expect((await admin.request('PUT', '/api/user/update/9999', { name: 'x' })).status).toBe(404);
  });

  it('answers 422 with per-field messages for bad values', async () => {
    const response = await ann.request('PUT', `/api/user/update/${ann.user.id}`, { name: '  ', postcode: 'x'.repeat(33), phone: 12345 });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(body.errors.name?.[0]).toBe('The name field is required.');
    expect(body.errors.postcode?.[0]).toBe('The postcode field must not be greater than 32 characters.');
    expect(body.errors.phone?.[0]).toBe('The phone field must be a string.');
    expect(stored(ann.user.id)?.name).toBe('Ann');
  });

  it('needs a session (401) and the XSRF header (419)', async () => {
    const anonymous = createClient(ctx.app);
    await anonymous.fetchCsrfCookie();
    expect((await anonymous.request('PUT', `/api/user/update/${ann.user.id}`, profile)).status).toBe(401);
    expect((await ann.request('PUT', `/api/user/update/${ann.user.id}`, profile, { headers: { 'X-XSRF-TOKEN': null } })).status).toBe(419);
    expect(stored(ann.user.id)?.surname).toBeNull();
  });
});
