// The OpenAPI 3.1 description of the machine-facing APIs (docs/integrations.md#openapi): /api/v1/, the
// licensing API and the update API (docs/updates.md), each registered by its own feature from the zod schemas that validate it,
// and the webhooks the site sends (OpenAPI's `webhooks`). Made once per
// process: it depends on the code, not on data.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppContext } from '../../context.ts';
import { describeLicensingApi } from '../licensing/index.ts';
import { describePublicApi, PUBLIC_API_SHAPES } from '../public-api/index.ts';
import { describeUpdatesApi } from '../updates/index.ts';
import { describeWebhooks } from '../webhooks/index.ts';

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

export function buildOpenApiDocument(config: Pick<AppContext['config'], 'siteName' | 'siteUrl'>): OpenApiDocument {
  const doc = new OpenAPIHono();
  describePublicApi(doc);
  describeLicensingApi(doc);
  describeUpdatesApi(doc);
  describeWebhooks(doc, PUBLIC_API_SHAPES);
  return doc.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: `${config.siteName} API`,
      version: '1',
      description:
        "The APIs machines call: the integrations API (an API token), the licensing API and the update API (a license key); and the webhooks the site sends to the integrations' own endpoints. Browsers use the site's own API, which is not described here.",
    },
    servers: [{ url: config.siteUrl }],
  });
}
