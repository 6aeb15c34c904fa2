// Title → URL slug, shared by the server (title_slug of posts and sections) and the browser (anchors),
// so both always agree. Pure and browser-safe.

/** Lower-case ASCII words joined by hyphens; accents folded; empty input gives 'item'. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/** First of `base`, `base-2`, `base-3`… that `isTaken` rejects, so slugs stay unique within their scope. */
export function uniqueSlug(base: string, isTaken: (candidate: string) => boolean): string {
  if (!isTaken(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!isTaken(candidate)) return candidate;
  }
}
