// API tokens an admin manages under Integrations (docs/integrations.md#api-tokens), mounted at
// /api/admin/api-tokens: create (the token shown once), list, revoke. Admin only.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { parseId, requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { presentApiToken } from './present.ts';
import { getApiToken, insertApiToken, listApiTokens, revokeApiToken } from './queries.ts';
import { API_SCOPES, hashApiToken, newApiToken } from './tokens.ts';

export const API_TOKEN_MESSAGES = {
  notFound: 'API token not found.',
  revoked: 'API token revoked.',
  unknownScope: (scope: string) => `Unknown scope: ${scope}.`,
} as const;

/** The longest life a token may be given; 0 means it never expires. */
export const MAX_TOKEN_DAYS = 3650;

const createSchema = z.object({
  name: requiredText('name', 100),
  scopes: z
    .array(z.string({ error: 'Each scope must be a string.' }), { error: 'The scopes field must be a list of scopes.' })
    .min(1, 'Choose at least one scope.')
    .superRefine((scopes, context) => {
      for (const scope of scopes)
        if (!(API_SCOPES as readonly string[]).includes(scope)) context.addIssue({ code: 'custom', message: API_TOKEN_MESSAGES.unknownScope(scope) });
    })
    .transform((scopes) => [...new Set(scopes)]),
  expires_days: z.coerce
    .number({ error: 'The expires days must be a number.' })
    .int('The expires days must be a whole number.')
    .min(0, 'The expires days must be at least 0.')
    .max(MAX_TOKEN_DAYS, `The expires days may not be greater than ${MAX_TOKEN_DAYS}.`)
    .default(90),
});

export function apiTokenAdminRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json({ api_tokens: listApiTokens(ctx.db).map(presentApiToken) }))
    .post('/', requireAdmin, smallJsonBody(), validate('json', createSchema), (c) => {
      const { name, scopes, expires_days: days } = c.req.valid('json');
      const now = ctx.now();
      const token = newApiToken();
      const row = insertApiToken(ctx.db, {
        name,
        scopes,
        token_hash: hashApiToken(token),
        created_by: c.get('user')?.id ?? null,
        created_at: new Date(now).toISOString(),
        expires_at: days === 0 ? null : new Date(now + days * 86_400_000).toISOString(),
      });
      ctx.log.info(`API token ${row.id} created by user ${c.get('user')?.id ?? '?'} with scopes ${scopes.join(' ')}`);
      // The only time the token leaves the server.
      return c.json({ token, api_token: presentApiToken(row) }, 201);
    })
    .delete('/:id{[0-9]+}', requireAdmin, (c) => {
      const id = parseId(c.req.param('id'));
      const token = id === null ? undefined : getApiToken(ctx.db, id);
      if (!token) return errorResponse(c, 404, API_TOKEN_MESSAGES.notFound);
      if (token.revoked_at === null) revokeApiToken(ctx.db, token.id, new Date(ctx.now()).toISOString());
      ctx.log.info(`API token ${token.id} revoked by user ${c.get('user')?.id ?? '?'}`);
      return c.json({ message: API_TOKEN_MESSAGES.revoked });
    });
}

/** The api-tokens feature as server/app.ts mounts it: the admin's tokens, at full paths. */
export function apiTokensFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/api-tokens', apiTokenAdminRoutes(ctx));
}
