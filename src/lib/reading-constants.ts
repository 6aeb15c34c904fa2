// The reader-side business constants of docs/product/constants.md, in one place so the scripts, the styles'
// comments and the tests agree. Change a figure here and every behaviour that uses it follows.

/** Home slideshow (docs/product/states.md, docs/product/constants.md). */
export const SLIDESHOW_TIMING = {
  /** After an image shows, wait this long before loading the next one (loading phase). */
  nextLoadDelayMs: 3000,
  /** Empty pause between one image going and the next one showing. */
  gapMs: 500,
  /** Once every image is loaded, each one shows this long before the next (cycling phase). */
  displayMs: 5000,
} as const;

/** Clicking a post in the sidebar (docs/product/reading.md#posts-screens, docs/product/constants.md). global.css uses the same 100 px as scroll-padding-top. */
export const POST_SCROLL = {
  durationMs: 500,
  offsetPx: 100,
} as const;

/** How often "3 minutes ago" is recomputed while a page stays open. */
export const RELATIVE_TIME_REFRESH_MS = 60_000;
