// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

// The site is built by the publish pipeline (server/publish) as a child process; it passes the
// snapshot location and the public URL through the environment so one config serves dev and publish.
const apiServer = `http://localhost:${process.env.PORT ?? '4321'}`;
const site = process.env.SITE_URL ?? apiServer;

// The two chunk groups of `vite.build.rolldownOptions` below. Each names a few modules; Rolldown adds what
// they import (includeDependenciesRecursively), so the lists stay short and a new import needs no entry.

/**
 * `site`: the nav bar's script (on every page) and what the reading pages' scripts share (the page
 * lifecycle, their constants, the admin overlay's small loader, the byte-size and date format). One file
 * every page loads and caches; the downloads page takes the reading pages' part too, about 1 KB it did not
 * load before, for ten fewer files.
 * @param {string} id
 */
function siteScriptModule(id) {
  return (
    /[\\/]src[\\/]scripts[\\/](?:nav-menu|account-area|nav-search|admin-overlay|page-lifecycle)\.ts$/.test(id) ||
    /[\\/]src[\\/]lib[\\/]reading-constants\.ts$/.test(id) ||
    // The one byte-size and date format (no imports): the downloads page's script and the loading modal
    // both use it, and in `account-ui` it made the downloads page fetch the dialogs' 11 KB chunk.
    /[\\/]src[\\/]lib[\\/]format\.ts$/.test(id) ||
    /[\\/]common[\\/]snapshot-types\.ts$/.test(id)
  );
}

/**
 * `account-ui`: the account dialogs (login, registration, the second step, the loading modal: plain DOM,
 * docs/decisions/0055-account-dialogs-without-react.md), the bot check they solve and the passkey library
 * the login form asks at once whether passkeys are offered. Fetched together when a dialog first opens (every
 * island and screen mounts the loading modal), never by a page that opens none. Modules already in `site`
 * stay there (its priority is higher).
 * @param {string} id
 */
function accountUiModule(id) {
  return (
    /[\\/]node_modules[\\/](?:altcha|@simplewebauthn[\\/]browser)[\\/]/.test(id) ||
    /[\\/]src[\\/]scripts[\\/]account-dialogs[\\/]index\.ts$/.test(id) ||
    /[\\/]src[\\/]lib[\\/]botcheck-solver\.ts$/.test(id)
  );
}

/**
 * `react-ui`: React and React DOM, which every island needs and no page without one fetches.
 * @param {string} id
 */
function reactUiModule(id) {
  return /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/.test(id);
}

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'ignore',
  // concurrency: four pages in generation at once, so one page's file writes (awaited, off the thread) overlap
  // the next pages' rendering. A cold build of the 5,000-post bench site generated its 434 pages and feeds in
  // 3.6–4.7 s against 4.8–6.3 s one at a time, measured in alternation (docs/decisions/0065-pages-four-at-a-time.md).
  build: { format: 'directory', inlineStylesheets: 'never', concurrency: 4 },
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
    build: {
      assetsInlineLimit: 0,
      reportCompressedSize: false,
      // Fewer, larger shared chunks (docs/decisions/0038-guarded-islands.md). Left to itself Rolldown made a
      // file of every set of modules shared by a different set of pages and islands: a page loaded a dozen
      // files of a few hundred bytes each, and every file costs about 0.9 KB of response headers.
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'site', test: siteScriptModule, priority: 20 },
              { name: 'account-ui', test: accountUiModule, priority: 15 },
              { name: 'react-ui', test: reactUiModule, priority: 10 },
            ],
          },
        },
      },
    },
    // Used only by `astro dev` (and `astro preview`), never by a build: the islands' API calls, the CSRF
    // cookie and uploaded media go to the API server on PORT, which `npm run dev` (scripts/dev.ts) starts
    // beside it. The Host header is kept, so the API sees the dev server's origin as the request's own.
    server: {
      proxy: { '/api': apiServer, '/sanctum': apiServer, '/media': apiServer },
    },
  },
});
