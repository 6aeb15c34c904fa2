// Banned e-mail domains for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 3), mounted at
// /api/admin/banned-domains. Registration refuses them (server/features/banned-domains/queries.ts); here each
// domain comes with the existing users it covers, since banning a domain does not touch existing accounts
// and the admin decides what to do with them (ban, delete, keep).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { deleteBannedDomain, domainAndParents, findBannedDomain, insertBannedDomain, listBannedDomains, type BannedDomain } from './queries.ts';
import { listUserEmails } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { required } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { normaliseDomain, usersByBannedDomain } from './domain-name.ts';
import { parseId } from '../../http/fields.ts';

export const BANNED_DOMAIN_MESSAGES = {
  added: 'Domain banned.',
  deleted: 'Domain removed from the banned list.',
  notFound: 'Banned domain not found.',
  invalid: 'The domain must be a valid domain name, such as example.com.',
  duplicate: 'This domain is already banned.',
} as const;

/** Users listed per domain; the count is always complete (a domain like gmail.com could cover thousands). */
export const USERS_LISTED_PER_DOMAIN = 100;

const storeSchema = z.object({
  domain: z
    .string({ error: required('domain') })
    .max(300, BANNED_DOMAIN_MESSAGES.invalid)
    .transform((text, context) => {
      if (text.trim() === '') {
        context.addIssue({ code: 'custom', message: required('domain') });
        return z.NEVER;
      }
      const domain = normaliseDomain(text);
      if (domain === null) {
        context.addIssue({ code: 'custom', message: BANNED_DOMAIN_MESSAGES.invalid });
        return z.NEVER;
      }
      return domain;
    }),
});

type DomainUser = { id: number; email: string };

function present(domain: BannedDomain, covered: readonly DomainUser[]) {
  return { ...domain, users: covered.slice(0, USERS_LISTED_PER_DOMAIN), users_count: covered.length };
}

/** Rows added before normalisation may differ in case or stray dots; match them the way registration does. */
function canonical(domain: string): string {
  return domainAndParents(domain)[0] ?? '';
}

export function bannedDomainRoutes(ctx: AppContext) {
  const withUsers = (domains: BannedDomain[]) => {
    const covered = usersByBannedDomain(
      listUserEmails(ctx.db),
      domains.map((row) => canonical(row.domain)),
    );
    return domains.map((row) => present(row, covered.get(canonical(row.domain)) ?? []));
  };

  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(withUsers(listBannedDomains(ctx.db))))
    .post('/store', requireAdmin, smallJsonBody(), validate('json', storeSchema), (c) => {
      const { domain } = c.req.valid('json');
      const row = writeTransaction(ctx.db, () => {
        if (findBannedDomain(ctx.db, domain)) throw new HttpError(422, BANNED_DOMAIN_MESSAGES.duplicate, { domain: [BANNED_DOMAIN_MESSAGES.duplicate] });
        return insertBannedDomain(ctx.db, domain, new Date(ctx.now()).toISOString());
      });
      const [presented] = withUsers([row]);
      return c.json({ message: BANNED_DOMAIN_MESSAGES.added, domain: presented }, 201);
    })
    .delete('/delete/:id', requireAdmin, (c) => {
      const id = parseId(c.req.param('id'));
      const removed = id === null ? undefined : deleteBannedDomain(ctx.db, id);
      if (!removed) return errorResponse(c, 404, BANNED_DOMAIN_MESSAGES.notFound);
      return c.json({ message: BANNED_DOMAIN_MESSAGES.deleted, id: removed.id });
    });
}

/** The banned-domains feature as server/app.ts mounts it: banned e-mail domains, at full paths. */
export function bannedDomainsFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/banned-domains', bannedDomainRoutes(ctx));
}
