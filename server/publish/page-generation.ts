// Runs inside an Astro build process (astro-build-process.ts). Astro lets an integration replace the
// prerenderer that generates a build's pages (`setPrerenderer` in `astro:build:start`, Astro 7.3.5's
// integrations/hooks.js), and the last one set wins: the build process's two needs of it go through this one
// wrapper of the default prerenderer. Its pages wait for the markdown pre-render while Astro bundles
// (markdown-prerender.ts, docs/decisions/0052-markdown-prerender.md), and a build asked to keep its
// prerenderer hands it over (kept-renderer.ts takes the bundle and internals a later renderer needs) and puts
// off the teardown, so the routes can still be listed after the build (docs/decisions/0056-fresh-renderer.md).
import type { AstroIntegration } from 'astro';

interface RouteData {
  type: string;
  /** The route's pattern as written ('/news/[slug]') and its page's file: together they name it. */
  route?: string;
  component?: string;
  distURL?: URL[] | undefined;
}
export interface PathWithRoute {
  pathname: string;
  route: RouteData;
}
export interface BuildOptions {
  settings: { config: { outDir: URL } & Record<string, unknown> } & Record<string, unknown>;
  logger: unknown;
}
export interface BuildApp {
  getOptions(): BuildOptions;
  routeCache: { clearAll(): void };
}
export interface Prerenderer {
  name: string;
  app?: BuildApp;
  setup?(): Promise<void>;
  getStaticPaths(): Promise<PathWithRoute[]>;
  render(request: Request, options: unknown): Promise<unknown>;
  teardown?(): Promise<void>;
}
export type { RouteData };

export function pageGenerationIntegration(options: {
  /** Settles when the pages may be generated (it must never reject). */
  beforePages?: Promise<unknown>;
  /** Keeps the build's own prerenderer loaded after the build, handing it over here. */
  keep?: (prerenderer: Prerenderer) => void;
}): AstroIntegration {
  return {
    name: 'site-publish:page-generation',
    hooks: {
      'astro:build:start': ({ setPrerenderer }: { setPrerenderer: (make: (defaults: Prerenderer) => Prerenderer) => void }) => {
        setPrerenderer((defaults) => {
          options.keep?.(defaults);
          return {
            name: 'site-publish:page-generation',
            // The bundle loads while the pre-render finishes: loading reads no markdown, rendering does.
            setup: async () => {
              await Promise.all([options.beforePages, defaults.setup?.()]);
            },
            getStaticPaths: () => defaults.getStaticPaths(),
            render: (request, renderOptions) => defaults.render(request, renderOptions),
            // A kept build's bundle stays loaded after build() returns.
            teardown: options.keep ? async () => {} : () => defaults.teardown?.() ?? Promise.resolve(),
          };
        });
      },
    },
  } as unknown as AstroIntegration;
}
