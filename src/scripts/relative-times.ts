// Turns every <time datetime data-relative-time> into "3 days ago" when the page is read, and keeps it
// current while the page stays open. The build's absolute date moves to the tooltip.
import { RELATIVE_TIME_REFRESH_MS } from '../lib/reading-constants';
import { formatRelativeTime } from '../lib/relative-time';
import { onEveryPage } from './page-lifecycle';

function render(root: ParentNode): void {
  const now = new Date();
  const locale = document.documentElement.lang || 'en';
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[datetime][data-relative-time]')) {
    const text = formatRelativeTime(new Date(time.dateTime), now, locale);
    if (!text) continue;
    if (!time.title) time.title = time.textContent?.trim() ?? '';
    if (time.textContent !== text) time.textContent = text;
  }
}

onEveryPage(() => {
  if (!document.querySelector('time[data-relative-time]')) return;
  render(document);
  const timer = window.setInterval(() => render(document), RELATIVE_TIME_REFRESH_MS);
  return () => window.clearInterval(timer);
});
