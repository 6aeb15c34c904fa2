// Writing static answers straight onto node's response: no Request/Response objects, no stat, no
// header maps built per request (the header lists were made when the build was loaded).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBoundedCache } from '../../common/bounded-cache.ts';
import { BASE_SECURITY_HEADERS, contentSecurityPolicy } from '../http/security-headers.ts';
import type { StaticEntry, StaticSite } from './static-site.ts';

interface Accepted {
  br: boolean;
  gzip: boolean;
}

const NONE: Accepted = { br: false, gzip: false };
/** Browsers send a handful of distinct Accept-Encoding values; parse each once. */
const acceptCache = createBoundedCache<string, Accepted>(256);

/** Which of our encodings the client accepts (q=0 refuses; `*` accepts what is not named). */
export function acceptedEncodings(header: string | undefined): Accepted {
  return header ? acceptCache.get(header, parseAcceptEncoding) : NONE;
}

function parseAcceptEncoding(header: string): Accepted {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const qParam = params.find((param) => param.toLowerCase().startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name.toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return { br: accepts('br'), gzip: accepts('gzip') || accepts('x-gzip') };
}

/**
 * Answers a GET/HEAD for a file of the live build: 304 on a matching validator, else the best encoding.
 * `own` are this request's headers (its id, the process's): the head is one writeHead of the prepared list
 * and them, with nothing set on `res` before (server/server.ts says why).
 */
export function serveStaticEntry(req: IncomingMessage, res: ServerResponse, site: StaticSite, entry: StaticEntry, head: boolean, own: string[]): void {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const matched = site.matchEtag(entry, ifNoneMatch);
    if (matched) {
      res.writeHead(304, matched.notModifiedHeaders.concat(own));
      res.end();
      return;
    }
  }
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const variant = (accepted.br && entry.br) || (accepted.gzip && entry.gzip) || entry.identity;
  res.writeHead(200, variant.headers.concat(own));
  if (head) res.end();
  else res.end(variant.body);
}

const plainHeaders = Object.entries({ ...BASE_SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy() }).flat();

export function sendPlain(res: ServerResponse, status: number, text: string, head: boolean, extra: string[] = []): void {
  const body = Buffer.from(text);
  res.writeHead(status, [
    'Content-Type',
    'text/plain; charset=utf-8',
    'Content-Length',
    String(body.length),
    'Cache-Control',
    'no-store',
    ...extra,
    ...plainHeaders,
  ]);
  if (head) res.end();
  else res.end(body);
}

/** A small JSON answer never to be cached (the health checks, server/ops/). */
export function sendJson(res: ServerResponse, status: number, value: unknown, head: boolean): void {
  sendBody(res, status, 'application/json', Buffer.from(JSON.stringify(value)), head);
}

/** An answer with a content type of its own, never cached (the metrics, server/ops/). */
export function sendBody(res: ServerResponse, status: number, contentType: string, body: Buffer, head: boolean): void {
  res.writeHead(status, ['Content-Type', contentType, 'Content-Length', String(body.length), 'Cache-Control', 'no-store', ...plainHeaders]);
  if (head) res.end();
  else res.end(body);
}

export function sendNotFound(res: ServerResponse, head: boolean): void {
  sendPlain(res, 404, 'Not found.\n', head);
}

const RETRY_SECONDS = 5;
// No script: the page must satisfy the strict CSP, and a meta refresh needs none.
const buildingPage = Buffer.from(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_SECONDS}"><title>The site is being built</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#1d2b3a}</style>
</head><body><main><h1>The site is being built</h1><p>This page refreshes by itself in a few seconds.</p></main></body></html>
`);

/** Before the first build is live there is nothing to show; say so and have the browser retry. */
export function sendSiteBuilding(res: ServerResponse, head: boolean): void {
  res.writeHead(503, [
    'Content-Type',
    'text/html; charset=utf-8',
    'Content-Length',
    String(buildingPage.length),
    'Retry-After',
    String(RETRY_SECONDS),
    'Cache-Control',
    'no-store',
    ...plainHeaders,
  ]);
  if (head) res.end();
  else res.end(buildingPage);
}
