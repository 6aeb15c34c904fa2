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

const isoDate = z
  .string()
  .refine((text) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(text) && !Number.isNaN(Date.parse(text)), 'Give a date such as 2027-12-31.');

/** What a license may be given through the API; left out, a field takes the type's default (docs/licensing.md). */
const licenseTermsFields = {
  expire_days: z.coerce.number().int('The expire days must be a whole number.').min(0).max(36_500).optional(),
  maintenance_until: isoDate
    .nullable()
    .optional()
    .openapi({ description: "End of included updates; null: no limit; left out: the type's maintenance_days after the grant." }),
  entitlements: z
    .array(z.string().regex(/^[A-Z][A-Z0-9_]{1,31}$/, 'Entitlement codes look like PRO or EXPORT_STEP.'))
    .max(100)
    .optional(),
  max_machines: z.coerce.number().int().min(1).max(10_000).optional(),
};

export const newLicenseSchema = z
  .object({
    user_id: z.number().int().positive().optional(),
    email: emailField.optional(),
    license_type: z
      .union([z.string().trim().min(1).max(100), z.number().int().positive()])
      .openapi({ description: 'The type by name (such as "perpetual" or "Pro") or by id.' }),
    ...licenseTermsFields,
    note: z.string().trim().max(500, 'The note may not be greater than 500 characters.').optional(),
  })
  .refine((input) => input.user_id !== undefined || input.email !== undefined, { message: 'Give either user_id or email.', path: ['user_id'] })
  .openapi('NewLicense');

export const licenseChangeSchema = z
  .object({
    suspended: z.boolean().optional(),
    expires_at: isoDate.nullable().optional().openapi({ description: 'When the license ends (counted in whole days from its activation); null: never.' }),
    max_machines: licenseTermsFields.max_machines,
    maintenance_until: licenseTermsFields.maintenance_until,
    entitlements: licenseTermsFields.entitlements,
  })
  .openapi('LicenseChange');

export const licenseIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: 'id', in: 'path' } }),
});

/** The things webhook events carry, in the shapes this API answers them (server/features/webhooks/openapi.ts). */
export const PUBLIC_API_SHAPES = { user: userSchema, license: licenseSchema, release: releaseSchema };
