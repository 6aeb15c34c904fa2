// Build-time only (node fs; imported from .astro frontmatter, never shipped to a browser).
// Rendering markdown costs ~25 ms for a typical body (the parser and KaTeX), so a site of a thousand
// posts would spend most of every publish re-rendering bodies that did not change. The publisher passes
// MARKDOWN_CACHE_DIR, a directory whose name already fingerprints the pipeline's code and packages, so a
// cached page of HTML is valid as long as the body is the same.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renderMarkdown } from '../../common/markdown/index.ts';

export function renderMarkdownCached(body: string, cacheDir: string | undefined = process.env.MARKDOWN_CACHE_DIR): string {
  if (!cacheDir) return renderMarkdown(body);
  const key = crypto.createHash('sha256').update(body).digest('hex');
  const file = path.join(cacheDir, key.slice(0, 2), `${key}.html`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // Not cached yet (or unreadable): render and store it for the next build.
  }
  const html = renderMarkdown(body);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Write then rename, so a build killed mid-write never leaves a truncated entry behind.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, html);
    fs.renameSync(temp, file);
  } catch {
    // A cache that cannot be written only costs speed.
  }
  return html;
}
