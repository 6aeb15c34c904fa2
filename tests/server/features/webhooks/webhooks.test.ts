// Webhooks (docs/integrations.md#webhooks): endpoints an admin manages, events written with their change,
// signatures any Standard Webhooks library verifies, delivery at least once with retries and backoff, and an
// endpoint disabled (admins mailed) after three days of failures.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../helpers/webhook-receiver.ts';
import { recordWebhookEvent } from '../../../../server/features/webhooks/events.ts';
import { webhookPayloadSchemas } from '../../../../server/features/webhooks/openapi.ts';
import { PUBLIC_API_SHAPES } from '../../../../server/features/public-api/schemas.ts';
import { deliverDueWebhooks, startWebhookDelivery, WEBHOOK_GIVE_UP_MS, webhookRetryDelay } from '../../../../server/features/webhooks/job.ts';
import type { PeriodicJob } from '../../../../server/process/periodic-job.ts';
import { anonymousClient } from '../../../helpers/accounts.ts';
import { solveBotChallenge } from '../../../helpers/botcheck.ts';
import { writeTransaction } from '../../../../server/db/client.ts';

let ctx: TestContext;
let admin: LoggedInClient;
let receiver: WebhookReceiver;
let job: PeriodicJob<unknown> | undefined;

beforeEach(async () => {
  ctx = createTestContext({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' }, fakeClock: true });
  await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(ctx.app, 'admin@example.com');
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  vi.useRealTimers();
  await job?.stop();
  job = undefined;
  await receiver.close();
  ctx.cleanup();
});

async function createEndpoint(events: string[] = ['user.created', 'contact.received'], url = receiver.url) {
  const response = await admin.request('POST', '/api/admin/webhooks', { url, events, description: 'CRM' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { webhook: { id: number; secret: string; events: string[]; enabled: number } }).webhook;
}

const record = (type: 'user.created' | 'contact.received', data: unknown) => writeTransaction(ctx.db, () => recordWebhookEvent(ctx, type, data, ctx.now()));

describe('webhook endpoints', () => {
  it('shows the whsec_ secret once, at creation, and never in the list', async () => {
    const created = await createEndpoint();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.events).toEqual(['user.created', 'contact.received']);
    const list = (await (await admin.request('GET', '/api/admin/webhooks')).json()) as { webhooks: Record<string, unknown>[] };
    expect(list.webhooks).toHaveLength(1);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    expect(list.webhooks[0]).not.toHaveProperty('secret');
  });

  it('refuses a bad url or an unknown event with the field, and stores nothing', async () => {
    for (const body of [
      { url: 'ftp://example.com/x', events: ['user.created'] },
      { url: 'https://user:pw@example.com/x', events: ['user.created'] },
      { url: 'https://example.com/x', events: ['user.exploded'] },
      { url: 'https://example.com/x', events: [] },
    ]) {
      const response = await admin.request('POST', '/api/admin/webhooks', body);
      expect(response.status).toBe(422);
      const answer = (await response.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(answer.errors)[0]).toMatch(/^(url|events)/);
    }
    const list = (await (await admin.request('GET', '/api/admin/webhooks')).json()) as { webhooks: unknown[] };
    expect(list.webhooks).toEqual([]);
  });

  it('edits, disables and deletes an endpoint; non-admins get nothing', async () => {
    const created = await createEndpoint();
    const edited = await admin.request('PUT', `/api/admin/webhooks/${created.id}`, { events: ['contact.received'], enabled: 0 });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { webhook: { events: string[]; enabled: number } }).webhook).toMatchObject({ events: ['contact.received'], enabled: 0 });
    // A disabled endpoint receives no new events.
    expect(record('contact.received', { id: 1 })).toBe(0);
    await createUser(ctx, { email: 'someone@example.com' });
    const user = await login(ctx.app, 'someone@example.com');
    expect((await user.request('GET', '/api/admin/webhooks')).status).toBe(403);
    expect((await admin.request('DELETE', `/api/admin/webhooks/${created.id}`)).status).toBe(200);
    expect((await admin.request('DELETE', `/api/admin/webhooks/${created.id}`)).status).toBe(404);
  });
});

describe('delivery', () => {
  it('signs each event so the standardwebhooks library verifies it, with the body { type, timestamp, data }', async () => {
    const endpoint = await createEndpoint();
    record('user.created', { id: 7, email: 'new@example.com' });
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ delivered: 1, failed: 0 });
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    const headers = {
      'webhook-id': String(hook?.headers['webhook-id']),
      'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
      'webhook-signature': String(hook?.headers['webhook-signature']),
    };
    // The library checks the timestamp against its own clock (five minutes of tolerance): verify as of the time it was sent.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(ctx.now());
    const verified = new Webhook(endpoint.secret).verify(hook?.body ?? '', headers) as { type: string; data: unknown; timestamp: string };
    expect(verified).toMatchObject({ type: 'user.created', data: { id: 7, email: 'new@example.com' } });
    expect(new Date(verified.timestamp).getTime()).toBe(ctx.now());
    // A signature by another secret, or over another body, is refused by the same library.
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(hook?.body ?? '', headers)).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(`${hook?.body} `, headers)).toThrow();
    vi.setSystemTime(ctx.now() + 10 * 60_000);
    expect(() => new Webhook(endpoint.secret).verify(hook?.body ?? '', headers)).toThrow(/too old/);
    vi.useRealTimers();
    // Delivered once: another run sends nothing.
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ delivered: 0, failed: 0 });
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a failing receiver with growing delays and delivers once it recovers, never twice after a 2xx', async () => {
    const endpoint = await createEndpoint();
    receiver.answer({ status: 500 }, { status: 503 }, { status: 200 });
    record('contact.received', { id: 3 });
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ failed: 1 });
    // Not due yet: nothing is sent before the first delay has passed.
    ctx.advance(webhookRetryDelay(1) - 1);
    await deliverDueWebhooks(ctx);
    expect(receiver.received).toHaveLength(1);
    ctx.advance(1);
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ failed: 1 });
    ctx.advance(webhookRetryDelay(2));
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ delivered: 1 });
    ctx.advance(webhookRetryDelay(9) * 3);
    await deliverDueWebhooks(ctx);
    expect(receiver.received).toHaveLength(3);
    // The same message id on every attempt, so a receiver can deduplicate.
    expect(new Set(receiver.received.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
    // Days went by on the fake clock: the admin signs in again.
    admin = await login(ctx.app, 'admin@example.com');
    const deliveries = (await (await admin.request('GET', `/api/admin/webhooks/${endpoint.id}/deliveries`)).json()) as {
      deliveries: Record<string, unknown>[];
    };
    expect(deliveries.deliveries[0]).toMatchObject({ event: 'contact.received', attempts: 3, last_status: 200, last_error: null, next_attempt_at: null });
    expect(deliveries.deliveries[0]?.delivered_at).toBeTruthy();
  });

  it('keeps at least 6 attempts over at least 6 hours before giving up', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed < 6 * 3_600_000) elapsed += webhookRetryDelay(attempts++);
    expect(attempts).toBeGreaterThanOrEqual(6);
    expect(WEBHOOK_GIVE_UP_MS).toBe(3 * 24 * 3_600_000);
  });

  it('disables an endpoint after three days of failures and mails the admins; its events wait', async () => {
    const endpoint = await createEndpoint();
    receiver.answer({ status: 500 });
    record('contact.received', { id: 1 });
    let runs = 0;
    const start = ctx.now();
    while (ctx.now() - start <= WEBHOOK_GIVE_UP_MS + 24 * 3_600_000 && runs < 200) {
      await deliverDueWebhooks(ctx);
      ctx.advance(3_600_000);
      runs += 1;
    }
    admin = await login(ctx.app, 'admin@example.com');
    const list = (await (await admin.request('GET', '/api/admin/webhooks')).json()) as {
      webhooks: { id: number; enabled: number; disabled_reason: string | null }[];
    };
    expect(list.webhooks[0]).toMatchObject({ id: endpoint.id, enabled: 0 });
    expect(list.webhooks[0]?.disabled_reason).toContain('three days');
    const mails = readOutbox(ctx.config.outboxDir).filter((mail) => mail.subject.includes('webhook endpoint was disabled'));
    expect(mails.map((mail) => mail.to)).toContain('admin@example.com');
    // Disabled: no further attempts.
    const before = receiver.received.length;
    ctx.advance(48 * 3_600_000);
    await deliverDueWebhooks(ctx);
    expect(receiver.received.length).toBe(before);
  });

  it('sends a test ping at once and lists it; an admin retries a delivery', async () => {
    const endpoint = await createEndpoint();
    const ping = await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`);
    expect(ping.status).toBe(200);
    expect(((await ping.json()) as { ok: boolean; delivery: { event: string; last_status: number } }).delivery).toMatchObject({
      event: 'ping',
      last_status: 204,
    });
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'ping' });
    // As GET /api/reference documents the ping.
    expect(webhookPayloadSchemas(PUBLIC_API_SHAPES).ping.safeParse(JSON.parse(receiver.received[0]?.body ?? '{}')).error?.issues ?? []).toEqual([]);
    const deliveryId = String(receiver.received[0]?.headers['webhook-id']);
    const retry = await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`);
    expect(retry.status).toBe(202);
    await deliverDueWebhooks(ctx);
    expect(receiver.received).toHaveLength(2);
    expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/deliveries/msg_nope/retry`)).status).toBe(404);
  });
});

describe('waking the delivery job', () => {
  const contact = async (message: string) => {
    const visitor = await anonymousClient(ctx.app);
    const sent = await visitor.request('POST', '/api/contact', { name: 'Bob', email: 'bob@example.com', message, g_token: await solveBotChallenge(ctx.app) });
    expect(sent.status).toBe(200);
  };

  it('a change with a subscriber wakes the job, which sends it without waiting for its timer; no subscriber, no wake', async () => {
    await contact('Nobody listens yet');
    expect(ctx.woken).toEqual([]);
    await createEndpoint(['contact.received']);
    // No timer at all: only a wake sends anything.
    job = startWebhookDelivery(ctx, { intervalMs: 0 });
    await contact('Hello there');
    expect(ctx.woken).toEqual(['webhooks']);
    // The test context only records wakes (the primary's runs them, server/main.ts): pass this one on.
    job.wake();
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'contact.received', data: { message: 'Hello there' } });
  });

  it('a receiver slow to answer holds only its own place: an event queued meanwhile goes out at once in the same run', async () => {
    const slowReceiver = await startWebhookReceiver();
    try {
      slowReceiver.answer('hang');
      await createEndpoint(['contact.received'], slowReceiver.url);
      await createEndpoint(['user.created']);
      job = startWebhookDelivery(ctx, { intervalMs: 0 });
      record('contact.received', { id: 1 });
      job.wake();
      await vi.waitFor(() => expect(slowReceiver.received).toHaveLength(1), { timeout: 5_000, interval: 20 });
      // The first attempt is still waiting for its answer (up to 10 s) when the next event is queued.
      record('user.created', { id: 2 });
      job.wake();
      await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 5_000, interval: 20 });
      expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({ type: 'user.created', data: { id: 2 } });
    } finally {
      // Its held answer ends (the attempt fails and is rescheduled), so the job's stop has nothing to wait for.
      await slowReceiver.close();
    }
  });

  it('an admin retrying a delivery, or switching its endpoint back on, wakes the job; switching it off does not', async () => {
    const endpoint = await createEndpoint(['contact.received']);
    await contact('Hello');
    expect((await admin.request('PUT', `/api/admin/webhooks/${endpoint.id}`, { enabled: 0 })).status).toBe(200);
    expect((await admin.request('PUT', `/api/admin/webhooks/${endpoint.id}`, { description: 'still off' })).status).toBe(200);
    expect(ctx.woken).toEqual(['webhooks']);
    expect((await admin.request('PUT', `/api/admin/webhooks/${endpoint.id}`, { enabled: 1 })).status).toBe(200);
    expect(ctx.woken).toEqual(['webhooks', 'webhooks']);
    expect(await deliverDueWebhooks(ctx)).toMatchObject({ delivered: 1 });
    const deliveryId = String(receiver.received[0]?.headers['webhook-id']);
    const retry = await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`);
    expect(retry.status).toBe(202);
    expect(((await retry.json()) as { message: string }).message).toBe('The delivery will be sent again in a moment.');
    expect(ctx.woken).toEqual(['webhooks', 'webhooks', 'webhooks']);
    // An unknown delivery is refused and wakes nothing.
    expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/deliveries/msg_nope/retry`)).status).toBe(404);
    expect(ctx.woken).toHaveLength(3);
  });
});
