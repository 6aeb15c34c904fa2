// Runs inside an Astro build process (astro-build-process.ts), never in the server. A full build made with
// this integration keeps its prerenderer (Astro's `setPrerenderer`, through page-generation.ts): the build's own
// prerender bundle, loaded, with the build's asset manifest (hashed CSS links, scripts, island URLs). After
// the build the process renders the routes a content change touches with it, through Astro's own
// `renderPath` (what the build itself calls per page), reading the content from the next snapshot
// (src/lib/site-data.ts reads CONTENT_DIR per snapshot). So an incremental publish renders each page with the
// very code and manifest of the full build, never a second template (docs/decisions/0044-incremental-publish.md).
//
// It reaches two modules inside Astro's dist (generate.js's renderPath, common.js's output paths) by file
// URL, as the package exports neither: pinned by the locked Astro version, and the equivalence test
// (tests/server/publish/incremental-equivalence.test.ts) fails if an Astro update changes them.
import type { AstroIntegration } from 'astro';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pageGenerationIntegration, type BuildApp, type BuildOptions, type PathWithRoute, type Prerenderer, type RouteData } from './page-generation.ts';

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

export interface RenderRequest {
  /** The next snapshot's directory (CONTENT_DIR for this render). */
  contentDir: string;
  /** The new build directory: a hard-linked copy of the live build, whose changed files are replaced. */
  outDir: string;
  /** Pathnames to render (dependency-map.ts); added routes are rendered and removed ones deleted as well. */
  paths: readonly string[];
}

export interface RenderOutcome {
  /** Files written, relative to outDir. */
  written: string[];
  /** Files removed (routes that no longer exist), relative to outDir. */
  removed: string[];
}

export interface KeptRenderer {
  /** Every pathname of the build as it is now (the last full build or render). */
  livePaths(): string[];
  render(request: RenderRequest): Promise<RenderOutcome>;
}

export function createKeptRenderer(options: { beforePages?: Promise<unknown> } = {}): {
  integration: AstroIntegration;
  afterBuild: (outDir: string) => Promise<KeptRenderer>;
} {
  let kept: Prerenderer | undefined;
  // The build's own prerenderer, whose teardown is put off: the bundle stays loaded after the build.
  const integration = pageGenerationIntegration({ beforePages: options.beforePages, keep: (defaults) => (kept = defaults) });

  async function afterBuild(outDir: string): Promise<KeptRenderer> {
    const app = kept?.app;
    if (!kept || !app) throw new Error('the build kept no prerenderer (did Astro call setPrerenderer?)');
    const prerenderer = kept;
    const astroDist = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'dist');
    const generate = (await import(pathToFileURL(path.join(astroDist, 'core', 'build', 'generate.js')).href)) as { renderPath: RenderPath };
    const common = (await import(pathToFileURL(path.join(astroDist, 'core', 'build', 'common.js')).href)) as { getOutFolder: OutFolder; getOutFile: OutFile };
    const { StaticPaths } = (await import(pathToFileURL(path.join(astroDist, 'runtime', 'prerender', 'static-paths.js')).href)) as {
      StaticPaths: new (app: BuildApp) => { getAll(): Promise<PathWithRoute[]> };
    };
    const options = app.getOptions();
    const format = (options.settings.config as unknown as { build: { format: unknown } }).build.format;

    /** Pathname → route, first route winning like the build's own conflict rule (generate.js). */
    const listPaths = async (): Promise<Map<string, PathWithRoute>> => {
      app.routeCache.clearAll();
      const paths = new Map<string, PathWithRoute>();
      for (const entry of await new StaticPaths(app).getAll()) {
        if (entry.route.type === 'fallback') continue;
        const key = entry.pathname.length > 1 ? entry.pathname.replace(/\/+$/, '') : entry.pathname;
        if (!paths.has(key)) paths.set(key, entry);
      }
      return paths;
    };
    /** Where the build wrote a route, relative to the build directory. */
    const outFileOf = (settings: BuildOptions['settings'], entry: PathWithRoute): string => {
      const encoded = encodeURI(entry.pathname);
      const file = common.getOutFile(format, common.getOutFolder(settings, encoded, entry.route), encoded, entry.route);
      return path.relative(fileURLToPath(settings.config.outDir), fileURLToPath(file));
    };

    // The routes the build just wrote into outDir (its CONTENT_DIR is still the build's snapshot).
    let live = await listPaths();
    void outDir;

    return {
      livePaths: () => [...live.keys()],
      async render(request) {
        process.env.CONTENT_DIR = request.contentDir;
        const next = await listPaths();
        const settings = { ...options.settings, config: { ...options.settings.config, outDir: pathToFileURL(path.join(request.outDir, '/')) } };
        const renderOptions = { ...options, settings };
        const wanted = new Set(request.paths.map((pathname) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname)));
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
            logger: options.logger,
            collectMetadata: false,
          });
          // renderPath records each output on the route; nothing reads it after the build.
          entry.route.distURL = undefined;
          if (!result) continue;
          const file = fileURLToPath(result.outFile);
          replaceFile(file, result.body);
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

  return { integration, afterBuild };
}

/**
 * The new build's files are hard links to the live build's: writing into one would change the live page
 * under its readers. A new file renamed over the link leaves the live one whole; the compressed forms the
 * link copy carried (of the old bytes) go, so neither nginx nor the loader can take them for the new page.
 */
function replaceFile(file: string, body: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const form of [`${file}.br`, `${file}.gz`]) fs.rmSync(form, { force: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  fs.writeFileSync(temp, body);
  fs.renameSync(temp, file);
}
