// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

// The site is built by the publish pipeline (server/publish) as a child process; it passes the
// snapshot location and the public URL through the environment so one config serves dev and publish.
const apiServer = `http://localhost:${process.env.PORT ?? '4321'}`;
const site = process.env.SITE_URL ?? apiServer;

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  cacheDir: process.env.ASTRO_CACHE_DIR ?? './node_modules/.astro',
  integrations: [react()],
  devToolbar: { enabled: false },
  // A publish copies the pages whose cacheKey did not change from the previous build instead of rendering
  // them again: on a large site most pages do not change with one edit. The key of the posts pages and the
  // section feeds is computed by postsCacheKey (src/lib/page-cache-key.ts) in their getStaticPaths.
  experimental: { incrementalBuild: true },
  server: { port: Number(process.env.ASTRO_DEV_PORT ?? 4322) },
  vite: {
    // Never inline: Astro would put small bundled <script>s straight into the page, and every inline
    // script needs a CSP hash; external modules are covered by script-src 'self'. (Fonts and images stay
    // files too, which the immutable /_astro cache serves well.)
    // reportCompressedSize: gzipping every chunk only to print its size cost each publish a few hundred ms.
    build: { assetsInlineLimit: 0, reportCompressedSize: false },
    // Used only by `astro dev` (and `astro preview`), never by a build: the islands' API calls, the CSRF
    // cookie and uploaded media go to the API server on PORT, which `npm run dev` (scripts/dev.ts) starts
    // beside it. The Host header is kept, so the API sees the dev server's origin as the request's own.
    server: {
      proxy: { '/api': apiServer, '/sanctum': apiServer, '/media': apiServer },
    },
  },
});
