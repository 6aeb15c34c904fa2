// The sitemap for the admin screen (docs/product/admin.md#sitemap; issue 7, item 5), mounted at
// /api/admin/sitemap. The sitemap is part of the static build, so "regenerate" means "publish": POST
// schedules one, and GET shows what the live build contains, instead of the old client's console output.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { findCurrentBuild } from '../../publish/build-dirs.ts';
import { readLiveSitemap } from './sitemap-file.ts';
import { presentPublishStatus } from '../publish/index.ts';

export const SITEMAP_MESSAGES = {
  scheduled: 'The sitemap is being regenerated with the site. It is shown here when the publish completes.',
  none: 'The live site has no sitemap yet.',
  noBuild: 'The site has not been built yet.',
} as const;

export function sitemapRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => {
      const status = ctx.publisher.status();
      // The publisher knows the live build; right after a start it may not have looked yet.
      const buildId = status.currentBuildId ?? findCurrentBuild(ctx.config)?.id ?? null;
      const sitemap = buildId ? readLiveSitemap(ctx.config.buildsDir, buildId) : null;
      return c.json({
        build_id: buildId,
        file: sitemap?.file ?? null,
        xml: sitemap?.xml ?? null,
        entries: sitemap?.entries ?? [],
        message: sitemap ? null : buildId ? SITEMAP_MESSAGES.none : SITEMAP_MESSAGES.noBuild,
        publish: presentPublishStatus(status),
      });
    })
    .post('/', requireAdmin, (c) => {
      ctx.publisher.schedule(`sitemap requested by admin ${c.get('user')?.id ?? '?'}`);
      // 202: the build runs in the background; the client polls GET /api/admin/publish, then GET here.
      return c.json({ message: SITEMAP_MESSAGES.scheduled, publish: presentPublishStatus(ctx.publisher.status()) }, 202);
    });
}

/** The sitemap feature as server/app.ts mounts it: the sitemap, at full paths. */
export function sitemapFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/sitemap', sitemapRoutes(ctx));
}
