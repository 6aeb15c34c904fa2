// The build's prerenderer wrapper (server/publish/page-generation.ts): the pages wait for the markdown
// pre-render, and the prerender bundle loads meanwhile (docs/decisions/0052-markdown-prerender.md).
import { describe, expect, it } from 'vitest';
import { pageGenerationIntegration, type Prerenderer } from '../../../server/publish/page-generation.ts';

type Hook = (args: { setPrerenderer: (make: (defaults: Prerenderer) => Prerenderer) => void }) => void;

function wrapped(defaults: Prerenderer, options: Parameters<typeof pageGenerationIntegration>[0]): Prerenderer {
  const integration = pageGenerationIntegration(options) as unknown as { hooks: { 'astro:build:start': Hook } };
  let made: Prerenderer | undefined;
  integration.hooks['astro:build:start']({ setPrerenderer: (make) => (made = make(defaults)) });
  if (!made) throw new Error('the integration set no prerenderer');
  return made;
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  // Enough turns of the microtask queue for anything not waiting on outside work to finish.
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  return done;
};

/** Astro's default prerenderer as far as setup goes: its bundle loads until `bundle` is resolved. */
function defaultsLoading(bundle: { promise: Promise<void> }, counter = { loads: 0 }): Prerenderer {
  return {
    name: 'default',
    setup: () => {
      counter.loads++;
      return bundle.promise;
    },
    getStaticPaths: () => Promise.resolve([]),
    render: () => Promise.resolve(null),
  };
}

describe('page generation', () => {
  it('loads the bundle while the markdown pre-render runs, and starts the pages only once both are done', async () => {
    const prerender = Promise.withResolvers<void>();
    const bundle = Promise.withResolvers<void>();
    const counter = { loads: 0 };
    const setup = wrapped(defaultsLoading(bundle, counter), { beforePages: prerender.promise }).setup?.() ?? Promise.resolve();

    expect(counter.loads).toBe(1);
    bundle.resolve();
    expect(await settled(setup)).toBe(false);
    prerender.resolve();
    expect(await settled(setup)).toBe(true);
  });

  it('waits for the bundle when the pre-render ends first', async () => {
    const prerender = Promise.withResolvers<void>();
    const bundle = Promise.withResolvers<void>();
    const setup = wrapped(defaultsLoading(bundle), { beforePages: prerender.promise }).setup?.() ?? Promise.resolve();
    prerender.resolve();
    expect(await settled(setup)).toBe(false);
    bundle.resolve();
    expect(await settled(setup)).toBe(true);
  });
});
