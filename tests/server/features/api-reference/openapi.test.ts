// GET /api/openapi.json (docs/integrations.md#openapi): a valid OpenAPI 3.1 document (checked by an OpenAPI
// validator, not by us) that describes exactly the routes the app serves under the machine APIs' prefixes,
// the webhooks the site sends, and the reference page that renders it without any script.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { WEBHOOK_EVENTS } from '../../../../common/integrations.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

const DESCRIBED_PREFIXES = ['/api/v1/', '/api/licensing/v1/', '/api/updates/v1/'];

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await ctx.app.request('/api/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route of the machine APIs, and nothing else', async () => {
    const document = (await (await ctx.app.request('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const described = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    const served = [
      ...new Set(
        ctx.app.routes
          .filter((route) => route.method !== 'ALL' && DESCRIBED_PREFIXES.some((prefix) => route.path.startsWith(prefix)) && !route.path.endsWith('*'))
          .map((route) => `${route.method} ${route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`),
      ),
    ];
    expect(described.sort()).toEqual(served.sort());
    expect(served.length).toBeGreaterThanOrEqual(8);
  });

  it('renders a reference page with no script at all', async () => {
    const response = await ctx.app.request('/api/reference');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('/api/v1/users');
    expect(html).toContain('/api/licensing/v1/activate');
    expect(html).not.toMatch(/<script/i);
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('script-src');
    const nonce = /style-src 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(html).toContain(`<style nonce="${nonce}">`);
  });

  it('describes every webhook event with its signature headers and body, and the reference page shows them', async () => {
    type Webhook = { post: { parameters: { name: string; in: string; required: boolean }[]; requestBody: { content: Record<string, { schema: unknown }> } } };
    const document = (await (await ctx.app.request('/api/openapi.json')).json()) as { webhooks: Record<string, Webhook> };
    const events = [...WEBHOOK_EVENTS, 'ping'];
    expect(Object.keys(document.webhooks).sort()).toEqual([...events].sort());
    for (const [event, webhook] of Object.entries(document.webhooks)) {
      expect(webhook.post.parameters.map((header) => [header.name, header.in, header.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(webhook.post.requestBody.content['application/json']?.schema).toMatchObject({
        properties: { type: { enum: [event] } },
        required: ['type', 'timestamp', 'data'],
      });
    }
    // A user event's data is the integrations API's User, by reference, so the two cannot differ.
    expect(JSON.stringify(document.webhooks['user.created'])).toContain('#/components/schemas/User');

    const html = await (await ctx.app.request('/api/reference')).text();
    expect(html).toContain('<h2 id="webhooks">Webhooks</h2>');
    const webhooksPart = html.slice(html.indexOf('<h2 id="webhooks">'), html.indexOf('<h2>Schemas</h2>'));
    for (const event of events) expect(webhooksPart).toContain(`<code>${event}</code>`);
    expect(webhooksPart).toContain('<code>webhook-signature</code> (header, required)');
  });
});
