// The legal pages (issue 28, section 1; docs/decisions/0046-support-and-legal-pages.md), mounted at /api/legal-pages:
// /privacy, /terms and /imprint, markdown an admin edits in place on the page itself (src/islands/admin/LegalPageOverlay.tsx,
// the overlay pattern of docs/decisions/0015-content-admin-overlay.md). Public read (the pages are public anyway); admin
// writes, each scheduling a publish like every content write.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { listLegalPages } from '../../db/queries/site-pages.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { HttpError } from '../../http/errors.ts';
import { requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { presentLegalPage } from './present.ts';
import { updateLegalPage } from './queries.ts';

export const LEGAL_PAGE_MESSAGES = { saved: 'Page saved.', notFound: 'This page does not exist.' } as const;
/** Like a post's body (server/features/content): room for a long policy. */
const BODY_MAX = 200_000;

const pageSchema = z.object({
  title: requiredText('title', 255),
  body: z.string({ error: 'The body must be text.' }).max(BODY_MAX, 'The body is too long.').default(''),
});

export function legalPagesRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', (c) => c.json({ pages: listLegalPages(ctx.db).map(presentLegalPage) }))
    .put('/:slug{privacy|terms|imprint}', requireAdmin, smallJsonBody(2 * 1024 * 1024), validate('json', pageSchema), (c) => {
      const slug = c.req.param('slug') as 'privacy' | 'terms' | 'imprint';
      const { title, body } = c.req.valid('json');
      const page = updateLegalPage(ctx.db, slug, { title, body, atIso: new Date(ctx.now()).toISOString() });
      if (!page) throw new HttpError(404, LEGAL_PAGE_MESSAGES.notFound);
      ctx.publisher.schedule(`legal page ${slug} updated`);
      return c.json({ message: LEGAL_PAGE_MESSAGES.saved, page: presentLegalPage(page) });
    });
}

/** The legal-pages feature as server/app.ts mounts it: privacy policy, terms of use and imprint, at full paths. */
export function legalPagesFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/legal-pages', legalPagesRoutes(ctx));
}
