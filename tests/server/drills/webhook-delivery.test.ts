// Webhooks at least once across a kill -9 (docs/integrations.md#delivery), against the real product process:
// the receiver holds the first attempts open, the server is killed mid-send, and after a restart every event
// is sent again and delivered; once the receiver has answered 2xx, nothing is sent again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAllServers, loginAdmin, startServer } from '../../helpers/server-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const temps: string[] = [];
let receiver: WebhookReceiver | null = null;

afterEach(async () => {
  await killAllServers();
  await receiver?.close();
  receiver = null;
});
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook delivery across a kill -9', () => {
  it('sends each event again after the restart, and never after a 2xx', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-drill-'));
    temps.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'content'));
    receiver = await startWebhookReceiver();
    receiver.answer('hang');
    const env = { WEBHOOKS_ALLOW_PRIVATE: 'true' };

    const first = await startServer(dataDir, env);
    const admin = await loginAdmin(first.base);
    expect((await admin.json('POST', '/api/admin/webhooks', { url: receiver.url, events: ['user.created'] })).status).toBe(201);
    const tokenAnswer = await admin.json('POST', '/api/admin/api-tokens', { name: 'drill', scopes: ['users:write'], expires_days: 1 });
    const { token } = (await tokenAnswer.json()) as { token: string };
    for (const email of ['one@example.com', 'two@example.com']) {
      const created = await fetch(`${first.base}/api/v1/users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, name: email }),
      });
      expect(created.status).toBe(201);
    }
    // Both are being sent (the receiver holds them): kill the server in the middle of the sends.
    await until('both attempts to arrive', () => receiver!.received.length >= 2);
    await first.kill();

    receiver.answer({ status: 204 });
    const second = await startServer(dataDir, env);
    const db = new Database(path.join(dataDir, 'site.db'), { readonly: true, fileMustExist: true });
    try {
      const delivered = () => db.prepare('select count(*) as n from webhook_deliveries where delivered_at is not null').get() as { n: number };
      await until('both deliveries to be marked delivered', () => delivered().n === 2);
      // Several delivery runs later (one every 2 s), nothing more was sent.
      const sentByNow = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(receiver.received.length).toBe(sentByNow);
      const perMessage = new Map<string, number>();
      for (const hook of receiver.received) perMessage.set(String(hook.headers['webhook-id']), (perMessage.get(String(hook.headers['webhook-id'])) ?? 0) + 1);
      // Each event: the attempt cut by the kill, then the one answered 204.
      expect([...perMessage.values()]).toEqual([2, 2]);
      const bodies = receiver.received.map((hook) => JSON.parse(hook.body) as { type: string; data: { email: string } });
      expect(new Set(bodies.map((body) => body.data.email))).toEqual(new Set(['one@example.com', 'two@example.com']));
    } finally {
      db.close();
      await second.kill();
    }
  }, 90_000);
});
