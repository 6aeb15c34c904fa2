// Security headers for every answer of the Hono app. Static pages get the same set (with their own
// per-page script hashes) from server/static; the policy text lives here so both agree.
import { createMiddleware } from 'hono/factory';

export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * The Content-Security-Policy. Scripts only from our origin plus the hashes of the inline scripts a
 * page really contains (Astro's island loader), and WebAssembly where search runs; styles allow inline
 * because KaTeX's output positions glyphs with style attributes; images may be data: (markdown allows
 * small inline images).
 */
export function contentSecurityPolicy(inlineScriptHashes: readonly string[] = [], options: { wasm?: boolean } = {}): string {
  // 'wasm-unsafe-eval' lets WebAssembly compile and nothing else (no JS eval): only pages that can run
  // the site search, and Pagefind's own files, ask for it (server/static/static-site.ts).
  const scriptSrc = ["'self'", ...(options.wasm ? ["'wasm-unsafe-eval'"] : []), ...inlineScriptHashes.map((hash) => `'${hash}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self' blob:",
    'frame-src https://www.youtube-nocookie.com',
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const apiPolicy = contentSecurityPolicy();

export const apiSecurityHeaders = createMiddleware(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS)) c.res.headers.set(name, value);
  if (!c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', apiPolicy);
});
