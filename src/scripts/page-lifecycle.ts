// Reading pages replace their <main> on internal navigation (reading-navigation.ts) instead of loading a
// new document, so a bundled module runs once while the page it set up may be replaced many times.
// onEveryPage runs a page's setup now and again after every swap, and its cleanup before each swap.
// Scripts that only touch what stays (the nav bar, the account area) need none of this.

/** Dispatched on document just before <main> is replaced. */
export const BEFORE_SWAP_EVENT = 'reading:before-swap';
/** Dispatched on document once the new <main>, title and URL are in place. */
export const AFTER_SWAP_EVENT = 'reading:after-swap';

export type PageCleanup = () => void;

export function onEveryPage(setup: () => PageCleanup | void): void {
  let cleanup: PageCleanup | void;
  document.addEventListener(BEFORE_SWAP_EVENT, () => {
    cleanup?.();
    cleanup = undefined;
  });
  document.addEventListener(AFTER_SWAP_EVENT, () => {
    cleanup = setup();
  });
  // A module first loaded after a swap is evaluated once the new page is in place: set it up now too.
  cleanup = setup();
}

/** True when the user asked the system for less motion (checked when needed: the setting can change). */
export function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Dispatched on document by the admin overlay once it has put a post in view and named it in the address
 * (after a save): the reader's scroll-spy takes that position as where the page was put, as after arrival.
 */
export const POST_PLACED_EVENT = 'reading:post-placed';
