// GET /api/openapi.json and GET /api/reference (docs/integrations.md#openapi): public, like the description
// of any public API; they name paths and shapes, never data.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './document.ts';
import { renderReferencePage } from './page.ts';

export function apiReferenceRoutes(ctx: AppContext) {
  let document: OpenApiDocument | null = null;
  const documentOf = () => (document ??= buildOpenApiDocument(ctx.config));
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(documentOf());
    })
    .get('/reference', (c) => {
      const nonce = randomBytes(16).toString('base64');
      c.header('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
      c.header('Cache-Control', 'no-cache');
      return c.html(renderReferencePage(documentOf(), nonce));
    });
}

/** The api-reference feature as server/app.ts mounts it. */
export function apiReferenceFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api', apiReferenceRoutes(ctx));
}
