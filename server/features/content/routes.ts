// The content administration API (docs/product/api.md#content, docs/product/api.md#images, docs/product/api.md#extra-files, and the home
// images of docs/product/api.md#home), one set of routers per namespace. Any other first segment is not a namespace and
// falls through to the API's 404.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { NAMESPACES } from '../../db/schema.ts';
import { extraFilesRoutes } from '../files/routes.ts';
import { homeImagesRoutes } from '../images/home-images.ts';
import { imagesRoutes } from '../images/routes.ts';
import { postsRoutes } from './posts.ts';
import { sectionsRoutes } from './sections.ts';

/** Mounted at /api. */
export function contentRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  for (const namespace of NAMESPACES) {
    app.route(`/${namespace}/section`, sectionsRoutes(ctx, namespace));
    app.route(`/${namespace}/extrafiles`, extraFilesRoutes(ctx, namespace));
    app.route(`/${namespace}`, postsRoutes(ctx, namespace));
    app.route(`/${namespace}`, imagesRoutes(ctx, namespace));
  }
  app.route('/home', homeImagesRoutes(ctx));
  return app;
}
