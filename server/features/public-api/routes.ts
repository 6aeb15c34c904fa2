// The integrations' API (docs/integrations.md#the-api), at /api/v1/: for the company's shop, CRM and scripts,
// authenticated by an API token only (server/features/api-tokens/guard.ts). Each route is an OpenAPI route: its
// zod schemas validate the call and describe it in GET /api/openapi.json.
import { createRoute, OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { toAdminUser } from '../../auth/public-user.ts';
import { writeTransaction } from '../../db/client.ts';
import { getUserByEmail, getUserById, insertUser } from '../../db/queries/users.ts';
import { machineError } from '../../auth/machine-api.ts';
import { fieldErrorsFromZod } from '../../http/errors.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { mailPasswordLink } from '../accounts/index.ts';
import { API_V1_PREFIX, apiTokenGuard, idempotent, requireScope, tokenOf } from '../api-tokens/index.ts';
import { listDownloadItems, presentRelease } from '../downloads/index.ts';
import {
  answerLicenseWrite,
  getLicenseWithType,
  getLicensesOfUser,
  presentLicenses,
  recordLicenseEvent,
  storeLicenseAsAdmin,
  updateLicenseAsAdmin,
} from '../licensing/index.ts';
import { findLicenseTypeByName, getLicenseTypeById } from '../license-types/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import {
  errorSchema,
  licenseChangeSchema,
  licenseIdParams,
  licenseSchema,
  licensesQuerySchema,
  newLicenseSchema,
  newUserSchema,
  releaseSchema,
  userSchema,
  usersQuerySchema,
} from './schemas.ts';

export const PUBLIC_API_MESSAGES = {
  userExists: 'A user with this e-mail address already exists.',
  userRequired: 'Give either user_id or email.',
  userNotFound: 'No user has this id or address.',
  typeNotFound: 'No license type has this name or id.',
  licenseNotFound: 'License not found.',
  notActivated: 'The license is not activated yet, so it has no end to move: activate it first or give expire_days.',
} as const;

const json = <Schema extends z.ZodType>(schema: Schema, description: string) => ({ content: { 'application/json': { schema } }, description });
const errors = {
  401: json(errorSchema, 'No token, or a token that is unknown, expired or revoked.'),
  403: json(errorSchema, 'The token lacks the scope this route needs (code SCOPE_MISSING).'),
  422: json(errorSchema, 'The request is not valid; `errors` names the fields.'),
  429: json(errorSchema, 'Too many calls for this token or address; see Retry-After.'),
};
const security = [{ ApiToken: [] }];

/** The routes of /api/v1/, as OpenAPI describes them (paths relative to /api/v1). */
export const PUBLIC_API_ROUTES = {
  listUsers: createRoute({
    method: 'get',
    path: '/users',
    summary: 'Find users by e-mail address (scope users:read)',
    security,
    request: { query: usersQuerySchema },
    responses: { 200: json(z.object({ users: z.array(userSchema) }), 'The users found.'), ...errors },
  }),
  createUser: createRoute({
    method: 'post',
    path: '/users',
    summary: 'Create a user, verified, mailed a link to choose a password (scope users:write; Idempotency-Key honoured)',
    security,
    request: { body: { content: { 'application/json': { schema: newUserSchema } }, required: true } },
    responses: { 201: json(z.object({ user: userSchema }), 'The user was created.'), 409: json(errorSchema, 'The address is taken.'), ...errors },
  }),
  listLicenses: createRoute({
    method: 'get',
    path: '/licenses',
    summary: "A user's licenses, by user id or e-mail address (scope licenses:read)",
    security,
    request: { query: licensesQuerySchema },
    responses: { 200: json(z.object({ licenses: z.array(licenseSchema) }), 'The licenses of the user.'), 404: json(errorSchema, 'No such user.'), ...errors },
  }),
  createLicense: createRoute({
    method: 'post',
    path: '/licenses',
    summary: 'Grant a license, mailed to its owner as from the admin console (scope licenses:write; Idempotency-Key honoured)',
    security,
    request: { body: { content: { 'application/json': { schema: newLicenseSchema } }, required: true } },
    responses: { 201: json(z.object({ license: licenseSchema, mail_sent: z.boolean().nullable() }), 'The license, with its key.'), ...errors },
  }),
  changeLicense: createRoute({
    method: 'patch',
    path: '/licenses/{id}',
    summary: 'Suspend, extend or change what a license allows (scope licenses:write)',
    security,
    request: { params: licenseIdParams, body: { content: { 'application/json': { schema: licenseChangeSchema } }, required: true } },
    responses: { 200: json(z.object({ license: licenseSchema }), 'The license as changed.'), ...errors, 404: json(errorSchema, 'No such license.') },
  }),
  listReleases: createRoute({
    method: 'get',
    path: '/releases',
    summary: 'Every release (scope releases:read)',
    security,
    responses: { 200: json(z.object({ releases: z.array(releaseSchema) }), 'The releases, current first.'), ...errors },
  }),
} satisfies Record<string, RouteConfig>;

/** A validation failure in the machine APIs' shape: `{ code, message, errors }` with 422. */
export function invalidRequest(result: { success: boolean; error?: unknown }, c: Context) {
  if (result.success || !(result.error instanceof z.ZodError)) return undefined;
  const fieldErrors = fieldErrorsFromZod(result.error);
  return machineError(c, 422, 'INVALID_REQUEST', Object.values(fieldErrors)[0]?.[0] ?? 'The given data was invalid.', { errors: fieldErrors });
}

export function publicApiRoutes(ctx: AppContext) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: invalidRequest });
  // Bodies here are a few fields: refused past 32 KB before anything reads them, token or not.
  app.use('*', smallJsonBody());
  app.use('*', apiTokenGuard(ctx));
  app.use('*', async (c, next) => {
    // Answers of this API are about named people and licenses: never cached anywhere.
    await next();
    c.header('Cache-Control', 'no-store');
  });
  const viewerOf = (c: Context<AppEnv>) => ({ id: tokenOf(c).createdBy ?? 0, role: 'admin' });

  app.use('/users', async (c, next) => requireScope(c.req.method === 'GET' ? 'users:read' : 'users:write')(c, next));
  app.use('/licenses', async (c, next) => requireScope(c.req.method === 'GET' ? 'licenses:read' : 'licenses:write')(c, next));
  app.use('/licenses/*', requireScope('licenses:write'));
  app.use('/releases', requireScope('releases:read'));
  app.post('*', idempotent(ctx));

  app.openapi(PUBLIC_API_ROUTES.listUsers, (c) => {
    const { email } = c.req.valid('query');
    const found = email ? getUserByEmail(ctx.db, email) : undefined;
    return c.json({ users: found ? [toAdminUser(found)] : [] }, 200);
  });

  app.openapi(PUBLIC_API_ROUTES.createUser, async (c) => {
    const { email, name } = c.req.valid('json');
    const at = ctx.now();
    const atIso = new Date(at).toISOString();
    // Nobody knows this password: the account opens when its owner chooses one through the mailed link.
    const unusable = await hashPassword(`${crypto.randomUUID()}${crypto.randomUUID()}`);
    const created = writeTransaction(ctx.db, () => {
      if (getUserByEmail(ctx.db, email)) return null;
      const user = insertUser(ctx.db, { name, email, password_hash: unusable, email_verified_at: atIso, created_at: atIso, updated_at: atIso });
      recordWebhookEvent(ctx, 'user.created', toAdminUser(user), at);
      return user;
    });
    if (!created) return c.json({ code: 'USER_EXISTS', message: PUBLIC_API_MESSAGES.userExists }, 409);
    ctx.log.info(`User ${created.id} created through API token ${tokenOf(c).id}`);
    await mailPasswordLink(ctx, created, 'welcome');
    return c.json({ user: toAdminUser(created) }, 201);
  });

  app.openapi(PUBLIC_API_ROUTES.listLicenses, (c) => {
    const { user_id: userId, email } = c.req.valid('query');
    if (userId === undefined && !email)
      return c.json({ code: 'INVALID_REQUEST', message: PUBLIC_API_MESSAGES.userRequired, errors: { user_id: [PUBLIC_API_MESSAGES.userRequired] } }, 422);
    const user = userId !== undefined ? getUserById(ctx.db, userId) : email ? getUserByEmail(ctx.db, email) : undefined;
    if (!user || (email && userId !== undefined && user.email.toLowerCase() !== email.toLowerCase()))
      return c.json({ code: 'NOT_FOUND', message: PUBLIC_API_MESSAGES.userNotFound }, 404);
    return c.json({ licenses: presentLicenses(ctx.db, getLicensesOfUser(ctx.db, user.id), { viewer: viewerOf(c), now: ctx.now() }) }, 200);
  });

  app.openapi(PUBLIC_API_ROUTES.createLicense, async (c) => {
    const input = c.req.valid('json');
    const token = tokenOf(c);
    const user = input.user_id !== undefined ? getUserById(ctx.db, input.user_id) : input.email ? getUserByEmail(ctx.db, input.email) : undefined;
    if (!user)
      return c.json(
        {
          code: 'INVALID_REQUEST',
          message: PUBLIC_API_MESSAGES.userNotFound,
          errors: { [input.user_id !== undefined ? 'user_id' : 'email']: [PUBLIC_API_MESSAGES.userNotFound] },
        },
        422,
      );
    const type = typeof input.license_type === 'number' ? getLicenseTypeById(ctx.db, input.license_type) : findLicenseTypeByName(ctx.db, input.license_type);
    if (!type)
      return c.json({ code: 'INVALID_REQUEST', message: PUBLIC_API_MESSAGES.typeNotFound, errors: { license_type: [PUBLIC_API_MESSAGES.typeNotFound] } }, 422);
    const at = new Date(ctx.now()).toISOString();
    const write = writeTransaction(ctx.db, () => {
      const stored = storeLicenseAsAdmin(ctx, token.createdBy, {
        license_type_id: type.id,
        user_id: user.id,
        active: 1,
        ...(input.expire_days !== undefined ? { expire: input.expire_days } : {}),
        ...(input.max_machines !== undefined ? { max_machines: input.max_machines } : {}),
        ...(input.entitlements !== undefined ? { entitlements: input.entitlements } : {}),
        ...(input.maintenance_until !== undefined ? { maintenance_until: input.maintenance_until } : {}),
      });
      if (input.note)
        recordLicenseEvent(ctx.db, {
          licenseId: stored.license.id,
          actorKind: 'admin',
          actorUserId: token.createdBy,
          action: 'note',
          detail: { note: input.note, api_token_id: token.id },
          at,
        });
      return stored;
    });
    ctx.log.info(`License ${write.license.id} granted through API token ${token.id}`);
    const answer = await answerLicenseWrite(ctx, write, viewerOf(c));
    return c.json({ license: answer.license, mail_sent: answer.mail_sent }, 201);
  });

  app.openapi(PUBLIC_API_ROUTES.changeLicense, (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const token = tokenOf(c);
    const stored = getLicenseWithType(ctx.db, id);
    if (!stored) return c.json({ code: 'NOT_FOUND', message: PUBLIC_API_MESSAGES.licenseNotFound }, 404);
    let expire: number | undefined;
    if (input.expires_at === null) expire = 0;
    else if (input.expires_at !== undefined) {
      // The model counts whole days from activation (docs/product/data-model.md): a date becomes those days.
      if (!stored.activated_at)
        return c.json({ code: 'INVALID_REQUEST', message: PUBLIC_API_MESSAGES.notActivated, errors: { expires_at: [PUBLIC_API_MESSAGES.notActivated] } }, 422);
      expire = Math.max(1, Math.ceil((Date.parse(input.expires_at) - Date.parse(stored.activated_at)) / 86_400_000));
    }
    const write = writeTransaction(ctx.db, () =>
      updateLicenseAsAdmin(ctx, token.createdBy, id, {
        ...(input.suspended !== undefined ? { suspended: input.suspended ? 1 : 0 } : {}),
        ...(expire !== undefined ? { expire } : {}),
        ...(input.max_machines !== undefined ? { max_machines: input.max_machines } : {}),
        ...(input.entitlements !== undefined ? { entitlements: input.entitlements } : {}),
        ...(input.maintenance_until !== undefined ? { maintenance_until: input.maintenance_until } : {}),
      }),
    );
    ctx.log.info(`License ${id} changed through API token ${token.id}`);
    const [license] = presentLicenses(
      ctx.db,
      getLicensesOfUser(ctx.db, write.license.user_id).filter((row) => row.id === id),
      { viewer: viewerOf(c), now: ctx.now() },
    );
    if (!license) throw new Error(`license ${id} vanished after its update`);
    return c.json({ license }, 200);
  });

  app.openapi(PUBLIC_API_ROUTES.listReleases, (c) => c.json({ releases: listDownloadItems(ctx.db).map((item) => presentRelease(item)) }, 200));

  return app;
}

/** The integrations' API as server/app.ts mounts it. */
export function publicApiFeature(ctx: AppContext) {
  return new OpenAPIHono<AppEnv>().route(API_V1_PREFIX, publicApiRoutes(ctx));
}

/** Registers /api/v1/ in an OpenAPI document (GET /api/openapi.json): the very route configs the routes run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app's registry takes these paths
export function describePublicApi(doc: OpenAPIHono<any>): void {
  doc.openAPIRegistry.registerComponent('securitySchemes', 'ApiToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token `dct_…` made under Integrations.',
  });
  for (const route of Object.values(PUBLIC_API_ROUTES)) {
    doc.openAPIRegistry.registerPath({ ...route, path: `${API_V1_PREFIX}${route.path.replace(/:(\w+)/g, '{$1}')}`, tags: ['Integrations API'] });
  }
}
