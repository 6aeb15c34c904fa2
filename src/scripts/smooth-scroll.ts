// A window scroll animated with requestAnimationFrame, so its length is exactly the 0.5 s of docs/product/constants.md (the
// browser's own smooth scrolling picks its own speed). The reader can take over: a wheel, touch or key
// stops the animation where it is.

const easeInOutCubic = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2);

/** Window scroll position that puts `element` `offset` px below the top of the viewport, within range. */
export function scrollTargetOf(element: Element, offset: number): number {
  const max = document.documentElement.scrollHeight - window.innerHeight;
  const y = element.getBoundingClientRect().top + window.scrollY - offset;
  return Math.max(0, Math.min(Math.round(y), Math.max(0, max)));
}

/** Resolves when the scroll arrived (or was taken over). Duration 0 jumps. */
export function animateScrollTo(top: number, durationMs: number): Promise<void> {
  const start = window.scrollY;
  const distance = top - start;
  // 'instant' overrides the stylesheet's scroll-behavior: smooth, which would animate every step again.
  if (durationMs <= 0 || Math.abs(distance) < 1) {
    window.scrollTo({ top, behavior: 'instant' });
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    const interrupts = ['wheel', 'touchstart', 'keydown'] as const;
    for (const name of interrupts) window.addEventListener(name, stop, { passive: true, once: true });
    const finish = () => {
      for (const name of interrupts) window.removeEventListener(name, stop);
      resolve();
    };
    let began: number | undefined;
    const step = (now: number) => {
      if (stopped) return finish();
      began ??= now;
      const progress = Math.min(1, (now - began) / durationMs);
      window.scrollTo({ top: start + distance * easeInOutCubic(progress), behavior: 'instant' });
      if (progress < 1) requestAnimationFrame(step);
      else finish();
    };
    requestAnimationFrame(step);
  });
}
