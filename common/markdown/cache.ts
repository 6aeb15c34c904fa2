// The on-disk cache of rendered markdown: the one place that renders and stores its entries (their path is
// cache-file.ts's), used by the build's pages (renderMarkdownCached) and by the workers that fill it before a
// full build (prerenderMarkdown, server/publish/markdown-prerender.ts, docs/decisions/0052-markdown-prerender.md).
// Node only, never exported from index.ts: a browser bundle must not pull node:fs.
//
// Rendering markdown costs ~7 ms for a typical body (the parser and KaTeX), so a site of a thousand posts
// would spend most of every publish re-rendering bodies that did not change. The publisher passes
// MARKDOWN_CACHE_DIR, a directory whose name already fingerprints the pipeline's code (this file included)
// and packages (markdownPipelineFingerprint), so a cached page of HTML is valid as long as the body is the same.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { markdownCacheFile } from './cache-file.ts';
import { renderMarkdown, renderMarkdownOutcome } from './render.ts';

/** The body's rendering: from the cache when it holds it, else rendered now and stored for the next build. */
export function renderMarkdownCached(body: string, cacheDir: string | undefined = process.env.MARKDOWN_CACHE_DIR): string {
  if (!cacheDir) return renderMarkdown(body);
  const file = markdownCacheFile(cacheDir, body);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // Not cached yet (or unreadable): render and store it for the next build.
  }
  const html = renderMarkdown(body);
  storeRendering(file, html);
  return html;
}

/**
 * Renders `body` into the cache unless it is there already, for a build that will read it next. A rendering
 * that needed renderMarkdown's stack-overflow fallback is not stored: where that sets in depends on the
 * thread's stack, so the build renders such a body itself, exactly as without the cache.
 */
export function prerenderMarkdown(body: string, cacheDir: string): 'cached' | 'rendered' | 'left to the build' {
  const file = markdownCacheFile(cacheDir, body);
  if (fs.existsSync(file)) return 'cached';
  const { html, degraded } = renderMarkdownOutcome(body);
  if (degraded) return 'left to the build';
  storeRendering(file, html);
  return 'rendered';
}

function storeRendering(file: string, html: string): void {
  // Write then rename, so no reader ever sees a truncated entry (a build killed mid-write, or two threads
  // storing the same body at once: each writes its own temp file, named by a random suffix).
  const temp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temp, html);
    fs.renameSync(temp, file);
  } catch {
    // A cache that cannot be written only costs speed.
    fs.rmSync(temp, { force: true });
  }
}
