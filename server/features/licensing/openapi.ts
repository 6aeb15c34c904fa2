// The licensing API as OpenAPI describes it (GET /api/openapi.json; docs/licensing.md is the prose): the same
// zod schemas that validate its bodies (routes.ts), registered as paths, so the description cannot drift from
// what the routes accept.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { activateSchema, deactivateSchema, heartbeatSchema, LICENSING_PREFIX, validateSchema } from './api-routes.ts';

const answer = z
  .object({
    code: z.string().describe('VALID, ACTIVATED, NOT_FOUND, NOT_ACTIVE, EXPIRED, SUSPENDED, NO_MACHINE, TOO_MANY_MACHINES, RATE_LIMITED, …'),
    message: z.string(),
  })
  .passthrough()
  .openapi('LicensingAnswer');
const json = (description: string) => ({ content: { 'application/json': { schema: answer } }, description });
const body = (schema: z.ZodType) => ({ content: { 'application/json': { schema } }, required: true });
const refusals = {
  400: json('Not JSON.'),
  413: json('Larger than 8 KB.'),
  422: json('A field is missing or wrong; `errors` names it.'),
  429: json('Too many calls for this key or address; see Retry-After.'),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app's registry takes these paths
export function describeLicensingApi(doc: OpenAPIHono<any>): void {
  const tags = ['Licensing API (the software)'];
  doc.openAPIRegistry.registerPath({
    method: 'get',
    path: `${LICENSING_PREFIX}/keys`,
    tags,
    summary: 'The public keys that verify license files (JWKS)',
    responses: { 200: { content: { 'application/json': { schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } }, description: 'A JWKS.' } },
  });
  doc.openAPIRegistry.registerPath({
    method: 'post',
    path: `${LICENSING_PREFIX}/activate`,
    tags,
    summary: 'Activate this machine (takes a seat) and receive its signed license file',
    request: { body: body(activateSchema) },
    responses: {
      200: json('Already active here: the lease is renewed.'),
      201: json('Activated.'),
      403: json('Not active, expired or suspended.'),
      404: json('No license has this key.'),
      409: json('Every seat is taken.'),
      ...refusals,
    },
  });
  doc.openAPIRegistry.registerPath({
    method: 'post',
    path: `${LICENSING_PREFIX}/validate`,
    tags,
    summary: 'Is this license (on this machine) valid now?',
    request: { body: body(validateSchema) },
    responses: { 200: json('`valid` and `code` say; an unknown key answers NOT_FOUND here too.'), ...refusals },
  });
  doc.openAPIRegistry.registerPath({
    method: 'post',
    path: `${LICENSING_PREFIX}/heartbeat`,
    tags,
    summary: "Keep a floating seat's lease alive; a lapsed lease answers HEARTBEAT_DEAD",
    request: { body: body(heartbeatSchema) },
    responses: {
      200: json('`valid`, `code`, `lease_expires_at` and a fresh `license_file`, or HEARTBEAT_DEAD.'),
      404: json('No license has this key.'),
      ...refusals,
    },
  });
  doc.openAPIRegistry.registerPath({
    method: 'post',
    path: `${LICENSING_PREFIX}/deactivate`,
    tags,
    summary: "Free this machine's seat",
    request: { body: body(deactivateSchema) },
    responses: { 204: { description: 'Deactivated.' }, 404: json('No such license or machine.'), ...refusals },
  });
}
