// Display helpers shared by pages and islands: byte sizes (the loading modal, the admin's tables, the download
// cards and attached files), dates for the dashboard cards.

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * "512 bytes", "1.5 KB", "240 KB", "70 MB": binary steps (what file managers show), one decimal below 10.
 * The one size format of every page and island, so the admin's in-place view of a post shows its file as the
 * published page does. An unknown size (not a number, or not above 0) is '', for the caller to leave out.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

/** An ISO date (or SQLite "YYYY-MM-DD HH:MM:SS") as "21 Nov 2026"; undefined when absent or unreadable. */
export function formatDate(value: string | null | undefined, withTime = false): string | undefined {
  if (!value) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2} \d/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toLocaleString('en-GB', withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
}

/** An ISO instant as the time of day, "17:40:15": 24-hour like every time on the site, whatever the browser's language (issue 28, 2.17). */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
}
