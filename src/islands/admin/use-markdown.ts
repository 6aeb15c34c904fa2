// The site's markdown pipeline (common/markdown, the one the build uses) for the live preview and for
// posts the static page does not show. It is heavy (unified, KaTeX), so it is a chunk of its own, loaded
// once on first need: the overlay's buttons and labels do not wait for it.
import { useEffect, useRef, useState } from 'react';
import type * as Markdown from '../../../common/markdown/index.ts';
import type * as Typography from '../../../common/markdown/typography.ts';

let loading: Promise<typeof Markdown> | undefined;

export function loadMarkdown(): Promise<typeof Markdown> {
  loading ??= import('../../../common/markdown/index.ts').catch((error: unknown) => {
    // A failed chunk load (a new deploy, a dropped connection) may work on the next try.
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * `markdown` rendered to sanitised HTML, or null until the renderer has loaded. With `delayMs` the
 * rendering waits until typing pauses, so a long body does not make every keystroke slow; meanwhile the
 * last rendering stays (a preview that blanked on each key would flicker).
 */
export function useRenderedMarkdown(markdown: string, delayMs = 0): string | null {
  const [rendered, setRendered] = useState<{ source: string; html: string } | null>(null);
  const renderedOnce = useRef(false);

  useEffect(() => {
    let current = true;
    const render = () =>
      loadMarkdown()
        .then(({ renderMarkdown }) => {
          if (!current) return;
          renderedOnce.current = true;
          setRendered({ source: markdown, html: renderMarkdown(markdown) });
        })
        .catch((error: unknown) => console.error('Could not load the markdown renderer', error));
    // The first rendering needs no wait.
    const timer = setTimeout(render, renderedOnce.current ? delayMs : 0);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [markdown, delayMs]);

  if (rendered === null) return null;
  return delayMs > 0 || rendered.source === markdown ? rendered.html : null;
}

let typographyLoading: Promise<typeof Typography> | undefined;

/** The titles' typography alone (common/markdown/typography.ts): small, so titles need not wait for KaTeX. */
export function loadTypography(): Promise<typeof Typography> {
  typographyLoading ??= import('../../../common/markdown/typography.ts').catch((error: unknown) => {
    typographyLoading = undefined;
    throw error;
  });
  return typographyLoading;
}

/** typographicText (titles as the static build writes them), or null until it has loaded. */
export function useTypographer(): ((text: string) => string) | null {
  const [typographer, setTypographer] = useState<{ run: (text: string) => string } | null>(null);
  useEffect(() => {
    let current = true;
    loadTypography()
      .then(({ typographicText }) => {
        if (current) setTypographer({ run: typographicText });
      })
      .catch((error: unknown) => console.error('Could not load the title typography', error));
    return () => {
      current = false;
    };
  }, []);
  return typographer?.run ?? null;
}

/** `text` with the body's typographic punctuation (as the static page shows titles), plain until the typography has loaded. */
export function useTypographicText(text: string): string {
  const typographer = useTypographer();
  return typographer ? typographer(text) : text;
}
