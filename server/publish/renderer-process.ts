// The renderer of incremental publishes (docs/decisions/0044-incremental-publish.md,
// docs/decisions/0056-fresh-renderer.md), forked by warm-astro.ts after a full build with the state file that
// build wrote (kept-renderer.ts); never started by hand. It loads the build's own prerender bundle with Astro's
// default prerenderer, as the build did, and renders the routes a content change touches with Astro's
// `renderPath` (what the build itself calls per page), reading the content from the next snapshot
// (src/lib/site-data.ts reads CONTENT_DIR per snapshot). A fresh process: none of the build's Vite and Rolldown
// memory comes with it, so it waits at a fraction of a build process's size.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BuildOptions, PathWithRoute, Prerenderer, RouteData } from './page-generation.ts';
import { replaceLinkedFile } from './build-dirs.ts';
import { peakRssBytes, resetPeakRss } from './peak-rss.ts';
import { astroDistModule, listRoutePaths, routeKey, type RendererState, type StaticPathsClass } from './renderer-state.ts';
import type { AstroRenderDone, RenderJob } from './warm-astro.ts';

if (!process.send) {
  console.error('server/publish/renderer-process.ts is started by the publisher, not by hand.');
  process.exit(1);
}

type RenderPath = (args: {
  prerenderer: Prerenderer;
  pathname: string;
  route: RouteData;
  options: BuildOptions;
  logger: unknown;
  collectMetadata: boolean;
}) => Promise<{ body: Buffer | string; outFile: URL } | null>;
type OutFolder = (settings: BuildOptions['settings'], pathname: string, route: RouteData) => URL;
type OutFile = (format: unknown, folder: URL, pathname: string, route: RouteData) => URL;
type CreateDefaultPrerenderer = (args: { internals: unknown; options: BuildOptions; prerenderOutputDir: URL }) => Prerenderer;
interface BundleApp {
  manifest: { routes: { routeData: RouteData }[] };
}

interface Renderer {
  livePaths(): string[];
  render(job: RenderJob): Promise<{ written: string[]; removed: string[] }>;
}

async function loadRenderer(state: RendererState): Promise<Renderer> {
  const [{ createDefaultPrerenderer }, generate, common, { StaticPaths }, { createNodeLoggerFromFlags }] = await Promise.all([
    astroDistModule<{ createDefaultPrerenderer: CreateDefaultPrerenderer }>('core/build/default-prerenderer.js'),
    astroDistModule<{ renderPath: RenderPath }>('core/build/generate.js'),
    astroDistModule<{ getOutFolder: OutFolder; getOutFile: OutFile }>('core/build/common.js'),
    astroDistModule<{ StaticPaths: StaticPathsClass }>('runtime/prerender/static-paths.js'),
    astroDistModule<{ createNodeLoggerFromFlags: (flags: { logLevel: string }) => { options: unknown } }>('core/logger/impls/node.js'),
  ]);
  const logger = createNodeLoggerFromFlags({ logLevel: 'info' });
  const bundleUrl = pathToFileURL(path.join(state.bundleDir, '/'));
  const config = {
    ...state.config,
    build: { ...state.config.build, client: new URL(state.config.build.client) },
    publicDir: new URL(state.config.publicDir),
    outDir: bundleUrl,
  };
  const options = {
    settings: { config, scripts: state.scripts, buildOutput: state.buildOutput, adapter: undefined },
    logger,
    origin: state.origin,
    routesList: { routes: [] },
  } as unknown as BuildOptions;
  const internals = {
    prerenderEntryFileName: state.prerenderEntryFileName,
    pagesByKeys: new Map(state.pagesByKeys),
    entrySpecifierToBundleMap: new Map(state.entrySpecifierToBundleMap),
  };
  // Astro's own prerenderer, set up as the build set it up: it imports the bundle's entry and gives its app
  // these internals and options.
  const prerenderer = createDefaultPrerenderer({ internals, options, prerenderOutputDir: bundleUrl });
  await prerenderer.setup?.();
  const app = prerenderer.app;
  if (!app) throw new Error('the prerenderer set up no app');
  const format = state.config.build.format;

  // The build's routes, with the route objects of this bundle's manifest.
  const routes = (app as unknown as BundleApp).manifest.routes.map((entry) => entry.routeData);
  let live = new Map<string, PathWithRoute>(
    state.live.map(({ pathname, route, component }) => {
      const data = routes.find((candidate) => candidate.route === route && candidate.component === component);
      if (!data) throw new Error(`the bundle has no route ${route} (${component})`);
      return [routeKey(pathname), { pathname, route: data }];
    }),
  );

  /** Where the build wrote a route, relative to the build directory. */
  const outFileOf = (settings: BuildOptions['settings'], entry: PathWithRoute): string => {
    const encoded = encodeURI(entry.pathname);
    const file = common.getOutFile(format, common.getOutFolder(settings, encoded, entry.route), encoded, entry.route);
    return path.relative(fileURLToPath(settings.config.outDir), fileURLToPath(file));
  };

  return {
    livePaths: () => [...live.keys()],
    async render(request) {
      process.env.CONTENT_DIR = request.contentDir;
      const next = await listRoutePaths(app, StaticPaths);
      const settings = { ...options.settings, config: { ...config, outDir: pathToFileURL(path.join(request.outDir, '/')) } };
      const renderOptions = { ...options, settings };
      const wanted = new Set(request.paths.map(routeKey));
      for (const key of next.keys()) if (!live.has(key)) wanted.add(key);
      const written: string[] = [];
      for (const key of [...wanted].sort()) {
        const entry = next.get(key);
        if (!entry) continue;
        const result = await generate.renderPath({
          prerenderer,
          pathname: entry.pathname,
          route: entry.route,
          options: renderOptions,
          logger,
          collectMetadata: false,
        });
        // renderPath records each output on the route; nothing reads it after the build.
        entry.route.distURL = undefined;
        if (!result) continue;
        const file = fileURLToPath(result.outFile);
        replaceLinkedFile(file, result.body);
        written.push(path.relative(request.outDir, file));
      }
      const removed: string[] = [];
      for (const [key, entry] of live) {
        if (next.has(key)) continue;
        const file = path.join(request.outDir, outFileOf(settings, entry));
        for (const form of [file, `${file}.br`, `${file}.gz`]) fs.rmSync(form, { force: true });
        removed.push(path.relative(request.outDir, file));
      }
      live = next;
      return { written, removed };
    },
  };
}

const reply = (message: AstroRenderDone) => process.send?.(message);

// The server went away: nothing will ask for a render again.
process.on('disconnect', () => process.exit(0));

const stateFile = process.argv[2];
const loading = (async () => {
  if (!stateFile) throw new Error('renderer-process.ts needs the state file a kept build wrote');
  return loadRenderer(JSON.parse(fs.readFileSync(stateFile, 'utf8')) as RendererState);
})();
// A bundle that cannot be loaded renders nothing: the process ends, and the publish builds in full.
loading.catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});

// One render at a time, in order: each starts from the routes the one before left.
let queue: Promise<void> = Promise.resolve();
process.on('message', (job: RenderJob) => {
  if (job.type !== 'render') return;
  queue = queue.then(async () => {
    const started = performance.now();
    try {
      const renderer = await loading;
      resetPeakRss();
      const result = await renderer.render(job);
      reply({
        type: 'rendered',
        id: job.id,
        ok: true,
        ...result,
        paths: renderer.livePaths(),
        ms: Math.round(performance.now() - started),
        peakRssBytes: peakRssBytes(),
      });
    } catch (error) {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      reply({ type: 'rendered', id: job.id, ok: false, written: [], removed: [], paths: [], ms: Math.round(performance.now() - started) });
    }
  });
});
