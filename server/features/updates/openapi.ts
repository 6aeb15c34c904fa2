// The update API as OpenAPI describes it (GET /api/openapi.json; docs/updates.md is the prose): the same zod
// schemas that validate its queries (api-routes.ts), registered as paths, so the description cannot drift.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { UPDATES_PREFIX, appcastQuerySchema, latestQuerySchema } from './api-routes.ts';

const refusal = z
  .object({
    code: z
      .string()
      .describe(
        'NOT_FOUND, INVALID_AUTHORIZATION, INVALID_REQUEST, NO_RELEASE, INVALID_SIGNATURE, LINK_EXPIRED, NO_LICENSE, ENTITLEMENTS_MISSING, MAINTENANCE_EXPIRED, RATE_LIMITED',
      ),
    message: z.string(),
  })
  .passthrough()
  .openapi('UpdateRefusal');
const json = (description: string) => ({ content: { 'application/json': { schema: refusal } }, description });

const latestFile = z.object({
  name: z.string(),
  size: z.number().int(),
  sha256: z.string().describe('Lower-case hex.'),
  sha512: z.string().describe('Lower-case hex.'),
  url: z.string().describe('A signed link, good for 15 minutes, no key or session needed; ranges supported.'),
});
const latestAnswer = z
  .object({
    update: z.boolean().describe('latest.version is newer than `current` (semver; pre-releases below their release).'),
    latest: z
      .object({
        version: z.string(),
        channel: z.enum(['stable', 'beta']),
        released_at: z.string(),
        notes_markdown: z.string(),
        notes_html: z.string(),
        file: latestFile,
      })
      .nullable(),
    blocked: z
      .object({ version: z.string(), code: z.enum(['NO_LICENSE', 'ENTITLEMENTS_MISSING', 'MAINTENANCE_EXPIRED']) })
      .nullable()
      .describe('The newest release this key may not have, so the software can offer a renewal.'),
  })
  .openapi('UpdateLatest');

const security = [{ LicenseKey: [] }];
const keyRefusals = {
  401: json('The Authorization header is not `License <key>`.'),
  404: json('No license has this key.'),
  429: json('Too many calls for this key or address; see Retry-After.'),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app's registry takes these paths
export function describeUpdatesApi(doc: OpenAPIHono<any>): void {
  const tags = ['Update API (the software)'];
  doc.openAPIRegistry.registerComponent('securitySchemes', 'LicenseKey', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      '`License <key>`; updaters that cannot set headers send `key` in the query instead. Without a key: only stable releases without an entitlement.',
  });
  doc.openAPIRegistry.registerPath({
    method: 'get',
    path: `${UPDATES_PREFIX}/latest`,
    tags,
    security,
    summary: 'The newest release this key may download for a platform, and whether it is an update',
    request: { query: latestQuerySchema },
    responses: {
      200: { content: { 'application/json': { schema: latestAnswer } }, description: '`latest` and `blocked` may be null.' },
      422: json('A query field is wrong; `errors` names it.'),
      ...keyRefusals,
    },
  });
  for (const [file, platform] of [
    ['latest.yml', 'Windows'],
    ['latest-mac.yml', 'macOS'],
    ['latest-linux.yml', 'Linux (x64)'],
    ['latest-linux-arm64.yml', 'Linux on arm64'],
  ] as const) {
    doc.openAPIRegistry.registerPath({
      method: 'get',
      path: `${UPDATES_PREFIX}/{channel}/${file}`,
      tags,
      security,
      summary: `electron-updater's update info for ${platform} (generic provider)`,
      request: { params: z.object({ channel: z.enum(['stable', 'beta']) }) },
      responses: {
        200: {
          content: { 'text/yaml': { schema: z.string() } },
          description: '`version`, `files: [{ url, sha512 (base64), size }]`, `path`, `sha512`, `releaseDate`; links signed.',
        },
        404: json('NO_RELEASE: nothing on this channel for this platform that this key may download (or an unknown key: NOT_FOUND).'),
        401: keyRefusals[401],
        429: keyRefusals[429],
      },
    });
  }
  doc.openAPIRegistry.registerPath({
    method: 'get',
    path: `${UPDATES_PREFIX}/{channel}/appcast.xml`,
    tags,
    security,
    summary: 'A Sparkle 2 appcast (macOS), newest first, every enclosure with its sparkle:edSignature',
    request: { params: z.object({ channel: z.enum(['stable', 'beta']) }), query: appcastQuerySchema },
    responses: { 200: { content: { 'application/rss+xml': { schema: z.string() } }, description: 'The appcast.' }, ...keyRefusals },
  });
  doc.openAPIRegistry.registerPath({
    method: 'get',
    path: `${UPDATES_PREFIX}/files/{fileId}`,
    tags,
    summary: 'A release file through a signed link from the feeds (ranges supported)',
    request: { params: z.object({ fileId: z.string() }), query: z.object({ expires: z.string(), sig: z.string() }) },
    responses: {
      200: { content: { 'application/octet-stream': { schema: z.string() } }, description: 'The file.' },
      206: { description: 'The requested range.' },
      403: json('INVALID_SIGNATURE, LINK_EXPIRED, or the license no longer allows it (NO_LICENSE, ENTITLEMENTS_MISSING, MAINTENANCE_EXPIRED).'),
    },
  });
  doc.openAPIRegistry.registerPath({
    method: 'get',
    path: `${UPDATES_PREFIX}/keys`,
    tags,
    summary: 'The public keys of the update-signing key (JWKS: OKP, Ed25519, kid); SUPublicEDKey is `x` in base64',
    responses: { 200: { content: { 'application/json': { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } }, description: 'A JWKS.' } },
  });
}
