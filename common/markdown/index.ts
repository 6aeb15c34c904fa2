// The markdown module's public face: render, sanitise, slug. Browser-safe (no node imports).
export { renderMarkdown, MATH_MAX_EXPAND } from './render.ts';
export { sanitizeHtml } from './sanitize-html.ts';
export { renderMailingHtml } from './mailing-html.ts';
export { renderPlainText } from './plain-text.ts';
export { typographicText } from './typography.ts';
// The slug function the server uses for title_slug (common/slugify.ts), re-exported so the editor
// preview and anchors agree with it.
export { slugify } from '../slugify.ts';
export { NESTING_LIMIT } from './depth.ts';
