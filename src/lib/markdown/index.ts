// The markdown module's public face: render, sanitise, slug. Browser-safe (no node imports).
export { renderMarkdown, MATH_MAX_EXPAND } from './render.ts';
export { sanitizeHtml } from './sanitize-html.ts';
export { slugify } from './slugify.ts';
export { NESTING_LIMIT } from './depth.ts';
