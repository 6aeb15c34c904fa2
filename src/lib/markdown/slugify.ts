// The one slug function for post and section title slugs (server: title_slug) and anything else that
// turns a title into a URL fragment. Pure and browser-safe so the editor can preview the slug the
// server will store.

const DEFAULT_MAX_LENGTH = 80;

/**
 * Lowercases, strips accents ("Café" → "cafe"), drops apostrophes ("don't" → "dont") and joins runs of
 * letters and digits (any script) with single dashes. May return '' (a title of only punctuation or
 * emoji): callers that need a non-empty, unique slug add their own fallback or suffix.
 * Long slugs are cut at a dash boundary to at most `maxLength` characters. Idempotent.
 */
export function slugify(text: string, maxLength = DEFAULT_MAX_LENGTH): string {
  // Folding twice: compatibility decomposition can produce capitals ('ℌ' → 'H') and lowercasing can
  // produce combining marks ('İ' → 'i̇'); a second round makes the result a fixed point.
  const slug = fold(fold(text))
    .replace(/['’‘`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const chars = Array.from(slug);
  if (chars.length <= maxLength) return slug;
  const cut = chars.slice(0, maxLength).join('');
  const lastDash = cut.lastIndexOf('-');
  // Prefer a word boundary, unless that would throw away most of the slug.
  return (lastDash > maxLength / 2 ? cut.slice(0, lastDash) : cut).replace(/-+$/, '');
}

function fold(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
}
