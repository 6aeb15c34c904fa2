// The Integrations screen (docs/integrations.md) as an admin uses it, at 1280 and 390 px: add a webhook
// endpoint (its secret shown once), send a test ping that a Standard Webhooks library verifies with that
// secret, read the deliveries; create an API token (shown once), call /api/v1/ with it, revoke it.
import { expect, test, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { logInThroughApi as logIn } from './accounts-support.ts';
import { E2E_ADMIN } from './env.ts';

let receiver: WebhookReceiver;
test.beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
test.afterEach(async () => {
  await receiver.close();
});

async function openIntegrations(page: Page) {
  await logIn(page.context().request, E2E_ADMIN.email, E2E_ADMIN.password);
  await page.goto('/admin#integrations');
  const panel = page.getByRole('region', { name: 'Integrations' });
  await expect(panel.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  return panel;
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`an admin connects a webhook and an API token at ${viewport.width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const panel = await openIntegrations(page);

    const webhooks = panel.getByRole('region', { name: 'Webhooks' });
    // Every event's box is drawn at one size: a name longer than its column once squeezed its box.
    const boxWidths = await webhooks
      .getByRole('group', { name: 'Events' })
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => box.getBoundingClientRect().width));
    expect(boxWidths.length).toBeGreaterThan(10);
    expect(new Set(boxWidths)).toEqual(new Set([boxWidths[0]]));
    await webhooks.getByLabel('URL').fill(receiver.url);
    await webhooks.getByLabel('Description').fill('CRM at the office');
    // Nothing chosen: the server's message shows under the events.
    await webhooks.getByRole('button', { name: 'Add Webhook' }).click();
    await expect(webhooks.getByText('Choose at least one event.')).toBeVisible();
    await webhooks.getByLabel('user.created').check();
    await webhooks.getByLabel('license.created').check();
    await webhooks.getByRole('button', { name: 'Add Webhook' }).click();
    const secretBox = webhooks.getByRole('group', { name: /Signing secret/ });
    await expect(secretBox).toBeVisible();
    const secret = (await secretBox.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await secretBox.getByRole('button', { name: 'I have copied it' }).click();
    await expect(secretBox).toHaveCount(0);

    await webhooks.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await expect(webhooks.getByText('Test ping delivered (HTTP 204).')).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    const hook = receiver.received[0];
    const verified = new Webhook(secret).verify(hook?.body ?? '', {
      'webhook-id': String(hook?.headers['webhook-id']),
      'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
      'webhook-signature': String(hook?.headers['webhook-signature']),
    }) as { type: string };
    expect(verified.type).toBe('ping');
    await webhooks.getByRole('button', { name: `Deliveries to ${receiver.url}` }).click();
    await expect(webhooks.getByRole('region', { name: `Deliveries to ${receiver.url}` }).getByText('Delivered (204)')).toBeVisible();

    const tokens = panel.getByRole('region', { name: 'API tokens', exact: true });
    await tokens.getByLabel('Name').fill(`Shop ${viewport.width}`);
    await tokens.getByLabel('users:read').check();
    await tokens.getByRole('button', { name: 'Create Token' }).click();
    const tokenBox = tokens.getByRole('group', { name: /API token/ });
    const token = (await tokenBox.locator('code').textContent())?.trim() ?? '';
    expect(token).toMatch(/^dct_/);
    const machine = await page
      .context()
      .request.get(`/api/v1/users?email=${encodeURIComponent(E2E_ADMIN.email)}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(machine.status()).toBe(200);

    // The page never scrolls sideways, at either width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`integrations-${viewport.width}.png`), fullPage: false });

    await tokenBox.getByRole('button', { name: 'I have copied it' }).click();
    await tokens.getByRole('button', { name: `Revoke Shop ${viewport.width}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(tokens.getByText(`Revoked "Shop ${viewport.width}".`)).toBeVisible();
    const refused = await page.context().request.get('/api/v1/users?email=x@example.com', { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
    await context.close();
  });
}
