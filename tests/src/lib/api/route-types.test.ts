// The API client's answer types come from the server's routers (src/lib/api/route-types.ts): these
// checks run in `npm test`'s type check (`astro check`) and fail it if a router stops recording its answers, if error
// answers leak into success types, or if a client module drifts from what the server sends.
import { describe, expectTypeOf, it } from 'vitest';
import type { publishRoutes } from '../../../../server/features/publish/routes.ts';
import type { sitemapRoutes } from '../../../../server/features/sitemap/routes.ts';
import type { ExtraFile } from '../../../../src/lib/api/files.ts';
import type { PublishStatus } from '../../../../src/lib/api/publish.ts';
import type { Answer } from '../../../../src/lib/api/route-types.ts';
import { type presentPublishStatus } from '../../../../server/features/publish/present.ts';
import { type presentUploadedFile } from '../../../../server/features/files/present.ts';

describe('answer types read from the routers', () => {
  it('are what the server presents', () => {
    expectTypeOf<PublishStatus>().toEqualTypeOf<ReturnType<typeof presentPublishStatus>>();
    expectTypeOf<ExtraFile>().toEqualTypeOf<ReturnType<typeof presentUploadedFile>>();
  });

  it('keep a 202 answer and leave out the error shape', () => {
    expectTypeOf<Answer<typeof publishRoutes, '/', '$post'>>().toEqualTypeOf<ReturnType<typeof presentPublishStatus>>();
    expectTypeOf<Answer<typeof sitemapRoutes, '/', '$post'>>().toHaveProperty('publish');
    expectTypeOf<Answer<typeof sitemapRoutes, '/', '$get'>>().not.toHaveProperty('errors');
  });
});
