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

describe('page generation', () => {
  it('loads the bundle while the markdown pre-render runs, and starts the pages only once both are done', async () => {
    let finishPrerender!: () => void;
    const beforePages = new Promise<void>((resolve) => (finishPrerender = resolve));
    let bundleLoads = 0;
    let finishBundle!: () => void;
    const defaults: Prerenderer = {
      name: 'default',
      setup: () => {
        bundleLoads++;
        return new Promise<void>((resolve) => (finishBundle = resolve));
      },
      getStaticPaths: () => Promise.resolve([]),
      render: () => Promise.resolve(null),
    };
    const setup = wrapped(defaults, { beforePages }).setup?.() ?? Promise.resolve();

    expect(bundleLoads).toBe(1);
    finishBundle();
    expect(await settled(setup)).toBe(false);
    finishPrerender();
    expect(await settled(setup)).toBe(true);
  });

  it('waits for the bundle when the pre-render ends first', async () => {
    let finishPrerender!: () => void;
    const beforePages = new Promise<void>((resolve) => (finishPrerender = resolve));
    let finishBundle!: () => void;
    const defaults: Prerenderer = {
      name: 'default',
      setup: () => new Promise<void>((resolve) => (finishBundle = resolve)),
      getStaticPaths: () => Promise.resolve([]),
      render: () => Promise.resolve(null),
    };
    const setup = wrapped(defaults, { beforePages }).setup?.() ?? Promise.resolve();
    finishPrerender();
    expect(await settled(setup)).toBe(false);
    finishBundle();
    expect(await settled(setup)).toBe(true);
  });
});
