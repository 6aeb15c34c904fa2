// The CSP of a static page allows exactly the inline scripts that page contains (Astro's island loader
// and hoisted scripts), by their SHA-256, so no other inline script can run (issue 2, item 8).
import crypto from 'node:crypto';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const TYPE_ATTRIBUTE = /\btype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const SRC_ATTRIBUTE = /\bsrc\s*=/i;

/** 'sha256-…' sources for every executable inline script of the page, in order, without duplicates. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const attributes = match[1] ?? '';
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    if (type && !isExecutableType((type[1] ?? type[2] ?? type[3] ?? '').trim().toLowerCase())) continue;
    // The browser hashes the script text exactly as written between the tags.
    hashes.add(
      `sha256-${crypto
        .createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64')}`,
    );
  }
  return [...hashes];
}

// Data blocks (application/json, ld+json, templates) never run and need no hash; CSP does govern
// import maps and speculation rules, so those count as scripts.
function isExecutableType(type: string): boolean {
  return type === '' || type === 'module' || type === 'importmap' || type === 'speculationrules' || type.includes('javascript') || type.includes('ecmascript');
}
