// The home sections' image slideshows (docs/product/reading.md#home, docs/product/states.md, docs/product/constants.md) over the static figure lists of
// HomeFigures.astro. Until the script runs, CSS already shows one frame of fixed proportions with the
// first image (other images are display:none, so the browser does not load them). When the section
// scrolls into view the show starts: each next image loads 3 s after the current one shows, replaces it
// after a 0.5 s gap, and once all are loaded each stays 5 s, cycling. Previous/next and a pause button
// are always there (WCAG 2.2.2); hovering or focusing the show holds it; with reduced motion it starts
// paused. A broken image shows the not-found placeholder.
import { SLIDESHOW_TIMING } from '../lib/reading-constants';
import { onEveryPage, prefersReducedMotion } from './page-lifecycle';

export const NOT_FOUND_IMAGE = '/not-found.svg';

/** Swaps a broken image for the placeholder (once: a missing placeholder must not loop). */
function showNotFound(img: HTMLImageElement): void {
  if (img.src.endsWith(NOT_FOUND_IMAGE)) return;
  img.removeAttribute('srcset');
  img.removeAttribute('sizes');
  img.alt = img.alt ? `Image not available: ${img.alt}` : 'Image not available';
  img.src = NOT_FOUND_IMAGE;
}

function watchBroken(img: HTMLImageElement): void {
  img.addEventListener('error', () => showNotFound(img));
  // It may have failed before this script ran.
  if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) showNotFound(img);
}

/** Resolves once the image has loaded (or failed, and shows the placeholder). */
function loadImage(img: HTMLImageElement | null): Promise<void> {
  if (!img) return Promise.resolve();
  return new Promise((resolve) => {
    if (img.complete && img.naturalWidth > 0) return resolve();
    img.addEventListener('load', () => resolve(), { once: true });
    img.addEventListener('error', () => resolve(), { once: true });
    // Hidden images do not load lazily; asking for it eagerly starts the download now.
    img.loading = 'eager';
    if (img.complete && img.naturalWidth > 0) resolve();
  });
}

function span(text: string, className?: string, hidden = false): HTMLSpanElement {
  const element = document.createElement('span');
  element.textContent = text;
  if (className) element.className = className;
  if (hidden) element.setAttribute('aria-hidden', 'true');
  return element;
}

function controlButton(label: string, icon: string, className: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `slideshow__button ${className}`;
  button.setAttribute('aria-label', label);
  const glyph = document.createElement('span');
  glyph.setAttribute('aria-hidden', 'true');
  glyph.textContent = icon;
  button.append(glyph);
  return button;
}

function enhance(root: HTMLElement): () => void {
  const items = [...root.querySelectorAll<HTMLElement>('.home-figures__item')];
  const images = items.map((item) => item.querySelector('img'));
  for (const img of images) if (img) watchBroken(img);
  if (items.length < 2) return () => {};

  const { nextLoadDelayMs, gapMs, displayMs } = SLIDESHOW_TIMING;
  const loaded = new Set<number>();
  let current = 0;
  let incoming: number | undefined;
  let timer: number | undefined;
  /** Bumped to cancel whatever is waiting (a load, a gap) when the user acts or the show pauses. */
  let generation = 0;
  let started = false;
  let userPaused = prefersReducedMotion();
  let hovered = false;
  let focused = false;

  root.dataset.enhanced = '';
  root.setAttribute('role', 'region');
  root.setAttribute('aria-roledescription', 'carousel');
  root.setAttribute('aria-label', root.dataset.label ?? 'Images');

  const controls = document.createElement('div');
  controls.className = 'slideshow__controls';
  const previous = controlButton('Previous image', '‹', 'slideshow__previous');
  const toggle = controlButton('Pause slideshow', '❚❚', 'slideshow__toggle');
  const toggleGlyph = toggle.querySelector('span') ?? toggle;
  const next = controlButton('Next image', '›', 'slideshow__next');
  const status = document.createElement('p');
  status.className = 'slideshow__status';
  controls.append(previous, status, toggle, next);
  root.append(controls);

  const running = () => started && !userPaused && !hovered && !focused;

  const render = () => {
    items.forEach((item, index) => item.toggleAttribute('data-active', index === current));
    // Seen as "2 / 3", heard as "Image 2 of 3": one whole phrase for screen readers, one for the eyes
    // (issue 14: interleaved pieces were read as "Image 1 of / 3").
    status.replaceChildren(span(`Image ${current + 1} of ${items.length}`, 'sr-only'), span(`${current + 1} / ${items.length}`, undefined, true));
    const playing = !userPaused;
    toggle.setAttribute('aria-label', playing ? 'Pause slideshow' : 'Play slideshow');
    toggleGlyph.textContent = playing ? '❚❚' : '▶';
    // Announce changes only while the show is not moving by itself (WAI-ARIA carousel pattern).
    status.setAttribute('aria-live', running() ? 'off' : 'polite');
  };

  /** Ends a transition in progress at once, so something is always shown. */
  const settle = () => {
    window.clearTimeout(timer);
    timer = undefined;
    generation += 1;
    for (const item of items) item.removeAttribute('data-leaving');
    if (incoming !== undefined) current = incoming;
    incoming = undefined;
    render();
  };

  const wait = (ms: number, then: () => void) => {
    window.clearTimeout(timer);
    timer = window.setTimeout(then, ms);
  };

  const scheduleAdvance = () => {
    window.clearTimeout(timer);
    if (!running()) return;
    // Loading phase: the next image is fetched 3 s after this one shows; then 5 s per image.
    wait(loaded.size < items.length ? nextLoadDelayMs : displayMs, advance);
  };

  /** Automatic step: load the next image if needed, let the current one go, show the next after the gap. */
  const advance = () => {
    const target = (current + 1) % items.length;
    const mine = ++generation;
    void loadImage(images[target] ?? null).then(() => {
      if (mine !== generation || !running()) return;
      loaded.add(target);
      const leaving = items[current];
      incoming = target;
      leaving?.removeAttribute('data-active');
      leaving?.setAttribute('data-leaving', '');
      wait(gapMs, () => {
        leaving?.removeAttribute('data-leaving');
        current = target;
        incoming = undefined;
        render();
        scheduleAdvance();
      });
    });
  };

  /** The user's previous/next: at once, no gap; the automatic timing restarts from here. */
  const go = (step: number) => {
    settle();
    const target = (current + step + items.length) % items.length;
    const mine = generation;
    current = target;
    render();
    void loadImage(images[target] ?? null).then(() => {
      loaded.add(target);
      if (mine === generation) scheduleAdvance();
    });
  };

  const updateRunning = () => {
    if (running()) scheduleAdvance();
    else settle();
    render();
  };

  previous.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  toggle.addEventListener('click', () => {
    userPaused = !userPaused;
    updateRunning();
  });
  root.addEventListener('pointerenter', () => {
    hovered = true;
    updateRunning();
  });
  root.addEventListener('pointerleave', () => {
    hovered = false;
    updateRunning();
  });
  root.addEventListener('focusin', () => {
    focused = true;
    updateRunning();
  });
  root.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Node && root.contains(event.relatedTarget)) return;
    focused = false;
    updateRunning();
  });

  // docs/product/states.md: nothing starts (and no further image loads) before the section is in view.
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      started = true;
      void loadImage(images[0] ?? null).then(() => {
        loaded.add(0);
        scheduleAdvance();
        render();
      });
    },
    { threshold: 0.25 },
  );
  observer.observe(root);
  render();

  return () => {
    observer.disconnect();
    window.clearTimeout(timer);
    generation += 1;
  };
}

onEveryPage(() => {
  const cleanups = [...document.querySelectorAll<HTMLElement>('[data-slideshow]')].map(enhance);
  return () => cleanups.forEach((cleanup) => cleanup());
});
