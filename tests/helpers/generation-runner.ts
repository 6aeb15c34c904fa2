// A fake build runner for the incremental publish's failure drills: every build writes a few pages whose
// bodies name the build's generation, padded to a size that takes the disk some writing; a render replaces
// the pages it names with the next generation as the real renderer does (replaceLinkedFile: by rename,
// never writing into a hard-linked file). The drills inject what goes wrong through the hooks.
import fs from 'node:fs';
import path from 'node:path';
import { replaceLinkedFile } from '../../server/publish/build-dirs.ts';
import type { BuildJob, BuildResult, BuildRunner, RenderJob } from '../../server/publish/build-runner.ts';

export const PAGES = ['index.html', 'a.html', 'b.html', 'c.html'] as const;
/** What an incremental render replaces: the rest of the pages stay links to the live build's files. */
export const RENDERED = ['a.html', 'b.html'] as const;
export const PAGE_BYTES = 256 * 1024;

/** The whole body of a page of a generation: a reader that gets anything else got a torn or mixed file. */
export function pageBody(page: string, generation: number): string {
  const head = `<!DOCTYPE html><title>${page} of generation ${generation}</title><!-- generation:${generation} -->`;
  return head + 'x'.repeat(PAGE_BYTES - head.length);
}

/** The generation a body names, or null when it is not exactly a whole page of some generation. */
export function generationOf(page: string, body: string): number | null {
  const match = /<!-- generation:(\d+) -->/.exec(body);
  if (!match) return null;
  const generation = Number(match[1]);
  return body === pageBody(page, generation) ? generation : null;
}

export interface GenerationRunner {
  runner: BuildRunner;
  calls: { full: number; render: number };
  /** The generation the next build or render writes. */
  generation(): number;
  /** Called by a render after it replaced its first page; throw to fail it half way. */
  midRender?: (outDir: string) => void | Promise<void>;
  /** Called by a full build before it writes each page; throw to fail it. */
  beforeFullPage?: (outDir: string, page: string) => void;
  /** How long a render takes between its pages (readers run meanwhile). */
  renderPauseMs: number;
}

export function createGenerationRunner(): GenerationRunner {
  let next = 1;
  const state: GenerationRunner = {
    runner: undefined as unknown as BuildRunner,
    calls: { full: 0, render: 0 },
    generation: () => next,
    renderPauseMs: 0,
  };
  const build = async (job: BuildJob): Promise<BuildResult> => {
    state.calls.full++;
    const generation = next;
    try {
      for (const page of PAGES) {
        state.beforeFullPage?.(job.outDir, page);
        fs.writeFileSync(path.join(job.outDir, page), pageBody(page, generation));
      }
    } catch (error) {
      return { ok: false, log: `[build] ${(error as Error).message}` };
    }
    next++;
    return { ok: true, log: '', paths: PAGES.map((page) => `/${page}`) };
  };
  const render = async (job: RenderJob): Promise<BuildResult> => {
    state.calls.render++;
    const generation = next;
    for (const [index, page] of RENDERED.entries()) {
      replaceLinkedFile(path.join(job.outDir, page), pageBody(page, generation));
      if (index === 0) await state.midRender?.(job.outDir);
      if (state.renderPauseMs > 0) await new Promise((resolve) => setTimeout(resolve, state.renderPauseMs));
    }
    next++;
    return { ok: true, log: '', written: [...RENDERED], removed: [] };
  };
  state.runner = Object.assign(build, {
    canRender: () => true,
    render,
    indexSearch: async (dir: string) => {
      fs.mkdirSync(path.join(dir, 'pagefind'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'pagefind', 'pagefind.js'), 'index');
      return { ok: true, log: '' };
    },
  });
  return state;
}

/** Every page of a build directory with the generation it names (null for a torn or missing page). */
export function readGenerations(dir: string): Record<string, number | null> {
  return Object.fromEntries(
    PAGES.map((page) => {
      const file = path.join(dir, page);
      return [page, fs.existsSync(file) ? generationOf(page, fs.readFileSync(file, 'utf8')) : null];
    }),
  );
}
