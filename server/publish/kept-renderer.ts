// Runs inside an Astro build process (astro-build-process.ts), never in the server. A full build made with
// this integration keeps what a renderer of later publishes needs (docs/decisions/0044-incremental-publish.md,
// docs/decisions/0056-fresh-renderer.md): the build's own prerender bundle, copied out of the directory Astro
// removes after the pages, and the few build internals its app reads when it renders (the pages' styles, the
// page-stage script, the config's output settings), written to a state file. A fresh process
// (renderer-process.ts) loads that bundle with Astro's own default prerenderer and renders the routes a content
// change touches with Astro's `renderPath`, as the build did: the very code and asset manifest of the full
// build, never a second template, in a process that holds none of the build's Vite and Rolldown memory.
//
// It reaches Astro's dist by file URL (the package exports none of it): pinned by the locked Astro version,
// and the equivalence test (tests/server/publish/incremental-equivalence.test.ts) fails if an update changes it.
import type { AstroIntegration } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pageGenerationIntegration, type BuildApp, type Prerenderer } from './page-generation.ts';
import { astroDistModule, listRoutePaths, type RendererState, type StaticPathsClass } from './renderer-state.ts';

/** What Astro's build hands the prerender app (BuildInternals): the parts the app reads while rendering. */
interface BuildInternals {
  prerenderEntryFileName?: string;
  pagesByKeys: Map<string, { styles: unknown[] }>;
  entrySpecifierToBundleMap: Map<string, string>;
}

interface BuildAppWithInternals extends BuildApp {
  setInternals(internals: BuildInternals): void;
}

/** Imports the prerender entry ahead of Astro and hands over the internals Astro gives its app. */
async function watchInternals(prerenderDir: string, take: (internals: BuildInternals) => void): Promise<void> {
  const entry = fs.readdirSync(prerenderDir).find((name) => name.startsWith('prerender-entry'));
  if (!entry) throw new Error(`no prerender entry in ${prerenderDir}`);
  const { app } = (await import(pathToFileURL(path.join(prerenderDir, entry)).href)) as { app: BuildAppWithInternals };
  const setInternals = app.setInternals.bind(app);
  app.setInternals = (value) => {
    take(value);
    setInternals(value);
  };
}

/** The file the state is written to, in the build's working directory; the bundle beside it. */
const RENDERER_STATE_FILE = 'renderer-state.json';
const BUNDLE_DIR = 'renderer-bundle';

export function createKeptRenderer(options: { beforePages?: Promise<unknown> } = {}): {
  integration: AstroIntegration;
  /** Writes the renderer's state after a build; returns its file and every pathname the build wrote. */
  afterBuild: () => Promise<{ stateFile: string; paths: string[] }>;
} {
  let kept: Prerenderer | undefined;
  let internals: BuildInternals | undefined;
  let bundleDir: string | undefined;

  const keep = (defaults: Prerenderer) => {
    kept = defaults;
    const setup = defaults.setup?.bind(defaults);
    defaults.setup = async () => {
      // Astro writes the prerender bundle under <cwd>/.astro/.prerender (the build's outDir lies outside the
      // working directory) and imports its entry in setup(); importing it first gives the same module, whose
      // app then hands us the internals as Astro sets them. Nothing here may fail the build: without what it
      // keeps, the next publishes build in full (afterBuild says why).
      const prerenderDir = path.join(process.cwd(), '.astro', '.prerender');
      await watchInternals(prerenderDir, (value) => (internals = value)).catch((error: unknown) =>
        console.warn(`[publish] the build's internals: ${String(error)}`),
      );
      await setup?.();
      // Astro removes the directory once the pages are written; the renderer imports the bundle from here.
      try {
        const copy = path.join(process.cwd(), BUNDLE_DIR);
        fs.cpSync(prerenderDir, copy, { recursive: true });
        bundleDir = copy;
      } catch (error) {
        console.warn(`[publish] the prerender bundle: ${String(error)}`);
      }
    };
  };
  const integration = pageGenerationIntegration({ beforePages: options.beforePages, keep });

  async function afterBuild(): Promise<{ stateFile: string; paths: string[] }> {
    const app = kept?.app;
    if (!kept || !app || !internals?.prerenderEntryFileName || !bundleDir) throw new Error('the build kept no prerenderer (did Astro call setPrerenderer?)');
    const { StaticPaths } = await astroDistModule<{ StaticPaths: StaticPathsClass }>('runtime/prerender/static-paths.js');
    // The routes the build just wrote (its CONTENT_DIR is still the build's snapshot).
    const live = await listRoutePaths(app, StaticPaths);
    const { settings, origin } = app.getOptions() as ReturnType<BuildApp['getOptions']> & { origin: string };
    const config = settings.config as unknown as RendererConfigSource;
    const state: RendererState = {
      bundleDir,
      prerenderEntryFileName: internals.prerenderEntryFileName,
      pagesByKeys: [...internals.pagesByKeys].map(([key, page]) => [key, { styles: page.styles }]),
      entrySpecifierToBundleMap: [...internals.entrySpecifierToBundleMap],
      scripts: (settings.scripts as { stage: string; content: string }[]).map(({ stage, content }) => ({ stage, content })),
      buildOutput: String(settings.buildOutput),
      origin,
      config: {
        base: config.base,
        site: config.site,
        trailingSlash: config.trailingSlash,
        compressHTML: config.compressHTML,
        build: { format: config.build.format, redirects: config.build.redirects, client: config.build.client.href },
        publicDir: config.publicDir.href,
      },
      live: [...live.values()].map(({ pathname, route }) => ({ pathname, route: route.route ?? '', component: route.component ?? '' })),
    };
    const stateFile = path.join(process.cwd(), RENDERER_STATE_FILE);
    fs.writeFileSync(stateFile, JSON.stringify(state));
    return { stateFile, paths: [...live.keys()] };
  }

  return { integration, afterBuild };
}

interface RendererConfigSource {
  base: string;
  site?: string;
  trailingSlash: string;
  compressHTML: boolean;
  build: { format: string; redirects: boolean; client: URL };
  publicDir: URL;
}
