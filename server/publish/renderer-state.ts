// What a full build leaves for the renderer of later publishes (docs/decisions/0056-fresh-renderer.md): written
// by the build process (kept-renderer.ts), read by the renderer's own process (renderer-process.ts), and the
// two helpers both sides use. Neither side runs in the server.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildApp, PathWithRoute } from './page-generation.ts';

export interface RendererState {
  /** The copy of the build's prerender bundle, which the renderer imports. */
  bundleDir: string;
  prerenderEntryFileName: string;
  /** The build internals the prerender app reads while rendering: each page's styles, the bundled entries. */
  pagesByKeys: [string, { styles: unknown[] }][];
  entrySpecifierToBundleMap: [string, string][];
  /** The config's injected scripts (the page-stage and head-inline ones are in every page's head). */
  scripts: { stage: string; content: string }[];
  buildOutput: string;
  origin: string;
  /** The config fields Astro's renderPath reads to name and write a page (URLs as hrefs). */
  config: {
    base: string;
    site: string | undefined;
    trailingSlash: string;
    compressHTML: boolean;
    build: { format: string; redirects: boolean; client: string };
    publicDir: string;
  };
  /** Every route the build wrote, named as the bundle's manifest names it. */
  live: { pathname: string; route: string; component: string }[];
}

export type StaticPathsClass = new (app: BuildApp) => { getAll(): Promise<PathWithRoute[]> };

/** A module of Astro's dist (the package exports none of these), by file URL: pinned by the locked version. */
export async function astroDistModule<T>(relativePath: string): Promise<T> {
  const dist = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'dist');
  return (await import(pathToFileURL(path.join(dist, relativePath)).href)) as T;
}

/** The route path as a map key: no trailing slash but the root's. */
export function routeKey(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/** Pathname → route of every page the app can render now, first route winning like the build's own conflict rule (generate.js). */
export async function listRoutePaths(app: BuildApp, StaticPaths: StaticPathsClass): Promise<Map<string, PathWithRoute>> {
  app.routeCache.clearAll();
  const paths = new Map<string, PathWithRoute>();
  for (const entry of await new StaticPaths(app).getAll()) {
    if (entry.route.type === 'fallback') continue;
    const key = routeKey(entry.pathname);
    if (!paths.has(key)) paths.set(key, entry);
  }
  return paths;
}
