// Security headers for every answer of the Hono app. Static pages get the same set (with their own
// per-page script hashes) from server/static; the policy text lives here so both agree.
import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import type { Config } from '../env.ts';

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
export function contentSecurityPolicy(inlineScriptHashes: readonly string[] = [], options: { wasm?: boolean; imageOrigins?: readonly string[] } = {}): string {
  // 'wasm-unsafe-eval' lets WebAssembly compile and nothing else (no JS eval): only pages that can run
  // the site search, and Pagefind's own files, ask for it (server/static/static-site.ts).
  const scriptSrc = ["'self'", ...(options.wasm ? ["'wasm-unsafe-eval'"] : []), ...inlineScriptHashes.map((hash) => `'${hash}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    // Published images may come from S3_PUBLIC_URL's origin (mediaImageOrigins; docs/decisions/0050-object-storage.md).
    ["img-src 'self' data: blob:", ...(options.imageOrigins ?? [])].join(' '),
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

/** The origins images may come from besides our own: S3_PUBLIC_URL's, when the bucket's media are public there. */
export function mediaImageOrigins(config: Pick<Config, 'storage'>): string[] {
  return config.storage.kind === 's3' && config.storage.publicUrl ? [new URL(config.storage.publicUrl).origin] : [];
}

/**
 * HSTS for an https site (RFC 6797): browsers then never try plain http for it again for a year,
 * subdomains included. Over plain http the header is meaningless (browsers ignore it), and sending it
 * for a local http://localhost would pin nothing, so only an https SITE_URL gets it.
 */
export function strictTransportSecurity(config: Pick<Config, 'siteOrigin'>): string | undefined {
  return config.siteOrigin.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : undefined;
}

const apiPolicy = contentSecurityPolicy();

/**
 * A JSON answer is data, never a document: it loads nothing, runs nothing and links nowhere, so the page
 * policy's sources, the referrer and permissions policies and the opener isolation say nothing for it.
 * What does is OWASP's set for REST answers: no sniffing it into something else, no framing, and a policy
 * that allows nothing should a browser ever render it (docs/decisions/0074-data-answer-headers.md).
 */
const DATA_ANSWER_HEADERS: ReadonlyArray<[string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
];
const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** Cache-Control values no shared cache may store. */
const PRIVATE_CACHE_CONTROL = /(?:^|,)\s*(?:private|no-store)\s*(?:,|=|$)/i;

/**
 * The headers every Hono answer gets. API answers are private unless a route says otherwise: an answer
 * under /api/ (the user, admin lists, drafts, license files) or to a signed-in request that names no
 * Cache-Control of its own gets `no-store`, so no browser or proxy cache keeps it; the few public,
 * cacheable answers (the licensing JWKS) set theirs explicitly and keep it. /sanctum answers are one
 * browser's token. An answer that sets a cookie is never shareable whatever its route said: a pull CDN
 * (docs/scaling.md#a-pull-cdn) would hand one visitor's session or XSRF cookie to the next (the JWKS,
 * asked with an ended session cookie, clears it and sends a fresh XSRF token).
 *
 * Served over HTTP (server/server.ts), the headers are put on Node's response as its head is written,
 * where the answer's own headers are final: touching the Hono answer's headers turns them into a fetch
 * `Headers` object, whose checks and sorted copy into Node's headers made the API's cheapest answers about
 * a fifth slower (docs/engineering.md#speed-notes). Without Node's response (`app.request()`), on the answer.
 */
export function apiSecurityHeaders(config: Pick<Config, 'siteOrigin'>) {
  const hstsValue = strictTransportSecurity(config);
  const hsts: ReadonlyArray<[string, string]> = hstsValue ? [['Strict-Transport-Security', hstsValue]] : [];
  const headerSets: HeaderSets = {
    document: [...Object.entries(BASE_SECURITY_HEADERS), ...hsts, ['Content-Security-Policy', apiPolicy]],
    data: [...DATA_ANSWER_HEADERS, ...hsts],
  };
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const privateByDefault = c.req.path.startsWith('/api/') || c.req.path.startsWith('/sanctum/') || Boolean(c.get('user'));
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    if (outgoing instanceof ServerResponse) {
      setAsHeadIsWritten(outgoing, headerSets, privateByDefault);
      return;
    }
    const headers = c.res.headers;
    for (const [name, value] of headersFor(headerSets, headers.get('Content-Type') ?? undefined, headers.has('Content-Security-Policy'))) {
      headers.set(name, value);
    }
    const cacheControl = cacheControlFor(headers.get('Cache-Control') ?? undefined, headers.has('Set-Cookie'), privateByDefault);
    if (cacheControl) headers.set('Cache-Control', cacheControl);
  });
}

/** The headers of an answer a browser may render as a document, and of a data (JSON) answer. */
interface HeaderSets {
  document: ReadonlyArray<[string, string]>;
  data: ReadonlyArray<[string, string]>;
}

/**
 * The headers an answer of `contentType` gets: the data set for JSON, the document set otherwise, without
 * the policy when the answer names its own (the API reference page's).
 */
function headersFor(sets: HeaderSets, contentType: string | undefined, ownPolicy: boolean): ReadonlyArray<[string, string]> {
  const set = contentType !== undefined && JSON_CONTENT_TYPE.test(contentType) ? sets.data : sets.document;
  return ownPolicy ? set.filter(([name]) => name !== 'Content-Security-Policy') : set;
}

/** The Cache-Control an answer must carry instead of its own (`own`), or undefined to keep its own. */
function cacheControlFor(own: string | undefined, setsCookie: boolean, privateByDefault: boolean): string | undefined {
  if (setsCookie) return own && PRIVATE_CACHE_CONTROL.test(own) ? undefined : 'no-store';
  return !own && privateByDefault ? 'no-store' : undefined;
}

/**
 * Adds the headers when the answer's head is written: Hono's adapter hands its headers to writeHead as
 * one object (with lower-case names when they came from a `Headers`), which Node merges over the ones set
 * on the response before, so an answer's own Content-Security-Policy wins, and its Cache-Control is
 * replaced in that object when a cookie makes it unfit. The answer's Content-Type, final only here,
 * chooses between the document and the data headers.
 */
function setAsHeadIsWritten(outgoing: ServerResponse, sets: HeaderSets, privateByDefault: boolean): void {
  const writeHead = outgoing.writeHead;
  outgoing.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    outgoing.writeHead = writeHead;
    const last = rest[rest.length - 1];
    const given = last !== null && typeof last === 'object' && !Array.isArray(last) ? (last as OutgoingHttpHeaders) : undefined;
    let givenCacheControl: string | undefined;
    let givenContentType: string | undefined;
    let givenPolicy = false;
    let setsCookie = this.hasHeader('Set-Cookie');
    for (const name of given ? Object.keys(given) : []) {
      const lower = name.toLowerCase();
      if (lower === 'cache-control') givenCacheControl = name;
      else if (lower === 'content-type') givenContentType = name;
      else if (lower === 'content-security-policy') givenPolicy = true;
      else if (lower === 'set-cookie') setsCookie = true;
    }
    const contentType = givenContentType ? given?.[givenContentType] : this.getHeader('Content-Type');
    const ownPolicy = givenPolicy || this.hasHeader('Content-Security-Policy');
    for (const [name, value] of headersFor(sets, contentType === undefined ? undefined : String(contentType), ownPolicy)) this.setHeader(name, value);
    const own = givenCacheControl ? given?.[givenCacheControl] : this.getHeader('Cache-Control');
    const cacheControl = cacheControlFor(own === undefined ? undefined : String(own), setsCookie, privateByDefault);
    if (cacheControl && given && givenCacheControl) rest[rest.length - 1] = { ...given, [givenCacheControl]: cacheControl };
    else if (cacheControl) this.setHeader('Cache-Control', cacheControl);
    return writeHead.call(this, statusCode, ...(rest as []));
  } as ServerResponse['writeHead'];
}
