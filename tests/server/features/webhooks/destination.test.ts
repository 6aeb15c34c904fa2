// Where a webhook may go (docs/integrations.md#delivery): internal addresses are refused on the address the
// connection would be made to (a literal, or what a name resolves to at send time), no redirect is followed,
// and no answer within the limit is a failure.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInternalAddress } from '../../../../server/features/webhooks/destination.ts';
import { postWebhook } from '../../../../server/features/webhooks/send.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../helpers/webhook-receiver.ts';

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

describe('isInternalAddress', () => {
  it('refuses loopback, private, link-local and other internal ranges, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '10.255.255.255',
      '172.16.0.1',
      '172.31.255.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ]) {
      expect([address, isInternalAddress(address)]).toEqual([address, true]);
    }
  });
  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect([address, isInternalAddress(address)]).toEqual([address, false]);
    }
  });
});

describe('postWebhook', () => {
  const send = (url: string, allowPrivate = false, timeoutMs?: number) =>
    postWebhook(url, {}, '{"type":"ping"}', { allowPrivate, ...(timeoutMs ? { timeoutMs } : {}) });

  it('refuses an internal literal and a name that resolves to one, and sends nothing', async () => {
    const port = new URL(receiver.url).port;
    for (const url of [
      receiver.url,
      `http://localhost:${port}/hooks`,
      `http://[::1]:${port}/hooks`,
      'http://10.1.2.3/hooks',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const result = await send(url);
      expect(result.ok, url).toBe(false);
      expect(result.ok ? '' : result.error, url).toMatch(/^Refused: /);
    }
    expect(receiver.received).toHaveLength(0);
    // Allowed for tests and intranets.
    expect(await send(receiver.url, true)).toEqual({ ok: true, status: 204 });
  });

  it('does not follow a redirect (to an internal address or anywhere)', async () => {
    receiver.answer({ status: 302, location: 'http://10.0.0.1/steal' });
    const result = await send(receiver.url, true);
    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(result.ok ? '' : result.error).toContain('redirects are not followed');
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    receiver.answer('hang');
    const result = await send(receiver.url, true, 300);
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.ok ? '' : result.error).toMatch(/No answer within/);
  });
});
