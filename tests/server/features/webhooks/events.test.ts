// The events of docs/integrations.md#events, each written by the change that causes it (in its transaction)
// through the real routes, with the data the API answers for that thing and never a secret, in the body the
// OpenAPI description documents for that event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { anonymousClient, linkIn, register } from '../../../helpers/accounts.ts';
import { latestMailTo } from '../../../helpers/mail.ts';
import { solveBotChallenge } from '../../../helpers/botcheck.ts';
import { releaseForm } from '../../../helpers/downloads.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { webhookDeliveries } from '../../../../server/db/schema.ts';
import { WEBHOOK_EVENTS } from '../../../../server/features/webhooks/events.ts';
import { webhookPayloadSchemas } from '../../../../server/features/webhooks/openapi.ts';
import { PUBLIC_API_SHAPES } from '../../../../server/features/public-api/schemas.ts';
import { announceExpiredLicenses } from '../../../../server/features/licensing/webhooks.ts';
import { ensureLicenseTypes } from '../../../../server/features/license-types/ensure-types.ts';

let ctx: TestContext;
let admin: LoggedInClient;

beforeEach(async () => {
  ctx = createTestContext({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(ctx.app, 'admin@example.com');
  const created = await admin.request('POST', '/api/admin/webhooks', { url: 'http://127.0.0.1:9/hooks', events: [...WEBHOOK_EVENTS] });
  expect(created.status).toBe(201);
});
afterEach(() => ctx.cleanup());

function events(): { event: string; data: Record<string, unknown> }[] {
  return ctx.db
    .select()
    .from(webhookDeliveries)
    .orderBy(asc(webhookDeliveries.created_at))
    .all()
    .map((row) => {
      const body = JSON.parse(row.payload) as { type: string; data: Record<string, unknown> };
      expect(body.type).toBe(row.event);
      // The body receivers get is the one GET /api/reference documents for this event.
      const documented = webhookPayloadSchemas(PUBLIC_API_SHAPES)[row.event as keyof ReturnType<typeof webhookPayloadSchemas>].safeParse(body);
      expect(documented.error?.issues ?? [], `${row.event} as documented`).toEqual([]);
      return { event: row.event, data: body.data };
    });
}

describe('events', () => {
  it('user.created and user.verified come from registration and the verification link, without the password hash', async () => {
    expect((await register(ctx.app, { email: 'ann@example.test', name: 'Ann' })).status).toBe(201);
    const mail = latestMailTo(ctx.config.outboxDir, 'ann@example.test');
    if (!mail) throw new Error('no verification mail');
    await ctx.app.request(linkIn(mail, '/api/auth/email/verify/'));
    const seen = events();
    expect(seen.map((event) => event.event)).toEqual(['user.created', 'user.verified']);
    expect(seen[0]?.data).toMatchObject({ email: 'ann@example.test', name: 'Ann', email_verified_at: null });
    expect(seen[1]?.data.email_verified_at).toBeTruthy();
    expect(JSON.stringify(seen)).not.toMatch(/password/);
    // Following the link again verifies nothing new, so no second event.
    await ctx.app.request(linkIn(mail, '/api/auth/email/verify/'));
    expect(events()).toHaveLength(2);
  });

  it('contact.received comes with the message', async () => {
    const visitor = await anonymousClient(ctx.app);
    const sent = await visitor.request('POST', '/api/contact', {
      name: 'Bob',
      email: 'bob@example.com',
      message: 'Hello there',
      g_token: await solveBotChallenge(ctx.app),
    });
    expect(sent.status).toBe(200);
    expect(events()).toMatchObject([{ event: 'contact.received', data: { name: 'Bob', email: 'bob@example.com', message: 'Hello there' } }]);
  });

  it('license_request.created comes from Request License, once', async () => {
    const user = await createUser(ctx, { email: 'carol@example.com', verified: true });
    const carol = await login(ctx.app, 'carol@example.com');
    for (let i = 0; i < 2; i += 1) expect((await carol.request('GET', `/api/user/request-license/${user.id}`)).status).toBe(200);
    expect(events()).toMatchObject([{ event: 'license_request.created', data: { user: { email: 'carol@example.com' } } }]);
  });

  it('release.published comes when a release becomes downloadable, not for a draft', async () => {
    const draft = await admin.request('POST', '/api/downloads/store', releaseForm({ title: 'Draft', body: 'x', release: '1', downloadable: '0' }));
    expect(draft.status).toBe(201);
    expect(events()).toEqual([]);
    const published = await admin.request(
      'POST',
      '/api/downloads/store',
      releaseForm({ title: 'Tool 2', body: 'x', release: '2', downloadable: '1' }, { name: 'tool.zip', content: 'bytes' }),
    );
    expect(published.status).toBe(201);
    expect(events()).toMatchObject([{ event: 'release.published', data: { title: 'Tool 2' } }]);
  });

  it('user.deleted comes from the admin deleting a user', async () => {
    const user = await createUser(ctx, { email: 'dave@example.com' });
    expect((await admin.request('DELETE', `/api/user/delete/${user.id}`)).status).toBe(200);
    expect(events()).toMatchObject([{ event: 'user.deleted', data: { id: user.id, email: 'dave@example.com' } }]);
  });
});

describe('license and machine events', () => {
  it('license.created, license.suspended, license.updated, machine.activated and machine.deactivated come from the console and the software', async () => {
    ensureLicenseTypes(ctx.db);
    const user = await createUser(ctx, { email: 'erin@example.com' });
    const types = (await (await admin.request('GET', '/api/license/types')).json()) as { license_types: { id: number; name: string }[] };
    const perpetual = types.license_types.find((type) => type.name.toLowerCase() === 'perpetual');
    expect(perpetual, JSON.stringify(types)).toBeDefined();
    const stored = await admin.request('POST', '/api/license/store', { license_type_id: perpetual?.id, user_id: user.id, active: 1 });
    const storedText = await stored.text();
    expect(stored.status, storedText).toBe(201);
    const license = (JSON.parse(storedText) as { license: { id: number; key: string } }).license;
    expect((await admin.request('PUT', `/api/license/update/${license.id}`, { suspended: 1 })).status).toBe(200);
    expect((await admin.request('PUT', `/api/license/update/${license.id}`, { suspended: 0, max_machines: 5 })).status).toBe(200);
    const software = (path: string, body: unknown) =>
      ctx.app.request(`/api/licensing/v1/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await software('activate', { key: license.key, fingerprint: 'lab-pc-1', name: 'Lab PC 1' })).status).toBe(201);
    expect((await software('deactivate', { key: license.key, fingerprint: 'lab-pc-1' })).status).toBe(204);
    const seen = events().filter((event) => event.event !== 'user.created');
    expect(seen.map((event) => event.event)).toEqual([
      'license.created',
      'license.suspended',
      'license.unsuspended',
      'license.updated',
      'machine.activated',
      'machine.deactivated',
    ]);
    expect(seen[0]?.data).toMatchObject({ id: license.id, key: license.key, user_id: user.id });
    expect(seen[4]?.data).toMatchObject({ license_id: license.id, machine: { fingerprint: 'lab-pc-1', name: 'Lab PC 1' } });
  });
});

describe('license.expired', () => {
  it('comes once for each end a license passes, trials and others alike, with an `expired` line in its history', async () => {
    ensureLicenseTypes(ctx.db);
    const user = await createUser(ctx, { email: 'frank@example.com' });
    const types = (await (await admin.request('GET', '/api/license/types')).json()) as { license_types: { id: number; name: string }[] };
    const trial = types.license_types.find((type) => type.name.toLowerCase() === 'trial');
    const stored = await admin.request('POST', '/api/license/store', { license_type_id: trial?.id, user_id: user.id, active: 1, expire: 1 });
    const license = ((await stored.json()) as { license: { id: number; expire_date: string } }).license;
    const later = { ...ctx, now: () => Date.parse(license.expire_date) + 1 };
    expect(announceExpiredLicenses(ctx)).toBe(0);
    expect(announceExpiredLicenses(later)).toBe(1);
    expect(announceExpiredLicenses(later)).toBe(0);
    const expired = events().filter((event) => event.event === 'license.expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]?.data).toMatchObject({ id: license.id, expire_date: license.expire_date });
    const history = (await (await admin.request('GET', `/api/license/${license.id}/events`)).json()) as { events: { action: string }[] };
    expect(history.events.map((event) => event.action)).toContain('expired');
  });
});
