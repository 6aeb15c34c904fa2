// "3 days ago" from an ISO date, computed when the page is read (docs/engineering.md#keeping-public-pages-light: a static page must not
// freeze relative times). Pure, so it is tested without a browser.

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** Under a minute either way (including a little clock skew) reads as "now". */
const NOW_SECONDS = 60;

const formatters = new Map<string, { always: Intl.RelativeTimeFormat; auto: Intl.RelativeTimeFormat }>();

function formattersFor(locale: string) {
  let pair = formatters.get(locale);
  if (!pair) {
    pair = { always: new Intl.RelativeTimeFormat(locale, { numeric: 'always' }), auto: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }) };
    formatters.set(locale, pair);
  }
  return pair;
}

/**
 * "now", "5 minutes ago", "3 days ago", "2 years ago" (or "in 2 days" for a future date). Units are
 * truncated, as the old server's diffForHumans did: 47 hours is "1 day ago". `numeric: 'always'` keeps
 * "1 day ago" rather than "yesterday", so every past time reads "… ago". Undefined for a bad date.
 */
export function formatRelativeTime(date: Date, now: Date, locale = 'en'): string | undefined {
  const time = date.getTime();
  if (Number.isNaN(time)) return undefined;
  const seconds = (time - now.getTime()) / 1000;
  const { always, auto } = formattersFor(locale);
  if (Math.abs(seconds) < NOW_SECONDS) return auto.format(0, 'second');
  for (const [unit, size] of UNITS) {
    const amount = Math.trunc(seconds / size);
    if (amount !== 0) return always.format(amount, unit);
  }
  return auto.format(0, 'second');
}
