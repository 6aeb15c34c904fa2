// Escaping for the XML the build writes (sitemap, RSS). Characters XML 1.0 forbids (most C0 controls)
// are dropped: one stray control character in a post would otherwise make the whole feed unreadable.

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** YYYY-MM-DD (UTC) of an ISO date, or undefined when it is not a date. */
export function isoDay(iso: string): string | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}
