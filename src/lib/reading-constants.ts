// The reader-side business constants of SPEC.md section 9, in one place so the scripts, the styles'
// comments and the tests agree. Change a figure here and every behaviour that uses it follows.

/** Home slideshow (SPEC.md 4 and 9). */
export const SLIDESHOW_TIMING = {
  /** After an image shows, wait this long before loading the next one (loading phase). */
  nextLoadDelayMs: 3000,
  /** Empty pause between one image going and the next one showing. */
  gapMs: 500,
  /** Once every image is loaded, each one shows this long before the next (cycling phase). */
  displayMs: 5000,
} as const;

/** Clicking a post in the sidebar (SPEC.md 2.5 and 9). global.css uses the same 100 px as scroll-padding-top. */
export const POST_SCROLL = {
  durationMs: 500,
  offsetPx: 100,
} as const;

/** How often "3 minutes ago" is recomputed while a page stays open. */
export const RELATIVE_TIME_REFRESH_MS = 60_000;
