// The shapes of /api/v1/ (docs/integrations.md#the-api): one zod schema per request and answer, which both
// validate the calls (routes.ts) and make the OpenAPI description (server/features/api-reference/).
import { z } from '@hono/zod-openapi';
import { API_SCOPES } from '../api-tokens/index.ts';
import { emailField, requiredText } from '../../http/fields.ts';

export const errorSchema = z
  .object({ code: z.string(), message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional(), scope: z.enum(API_SCOPES).optional() })
  .openapi('Error');

export const userSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    surname: z.string().nullable(),
    companyName: z.string().nullable(),
    email: z.string(),
    email_verified_at: z.string().nullable(),
    address: z.string().nullable(),
    postcode: z.string().nullable(),
    county: z.string().nullable(),
    country: z.string().nullable(),
    phone: z.string().nullable(),
    vat: z.string().nullable(),
    license_request: z.number().int(),
    is_banned: z.number().int(),
    role: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .passthrough()
  .openapi('User');

export const licenseSchema = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    license_type_id: z.number().int(),
    license_type: z.object({ name: z.string() }).passthrough(),
    key: z.string().nullable(),
    active: z.number().int(),
    suspended: z.number().int(),
    max_machines: z.number().int(),
    expire: z.number().int(),
    activated_at: z.string().nullable(),
    expire_date: z.string().nullable(),
    status: z.object({ code: z.string(), text: z.string() }).passthrough(),
    machines: z.array(z.object({ id: z.number().int(), fingerprint: z.string(), name: z.string().nullable() }).passthrough()),
  })
  .passthrough()
  .openapi('License');

export const releaseSchema = z
  .object({ id: z.number().int(), title: z.string(), body: z.string(), release: z.string(), is_current: z.number().int(), downloadable: z.number().int() })
  .passthrough()
  .openapi('Release');

export const usersQuerySchema = z.object({
  email: z
    .string()
    .trim()
    .max(255)
    .optional()
    .openapi({ param: { name: 'email', in: 'query' }, description: 'Exact address, any case.' }),
});

export const newUserSchema = z.object({ email: emailField, name: requiredText('name', 255) }).openapi('NewUser');

export const licensesQuerySchema = z.object({
  user_id: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .openapi({ param: { name: 'user_id', in: 'query' } }),
  email: z
    .string()
    .trim()
    .max(255)
    .optional()
    .openapi({ param: { name: 'email', in: 'query' } }),
});
