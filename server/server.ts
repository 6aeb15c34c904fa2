// The HTTP front of every serving process: the live static build and /media on a raw node fast path,
// everything else (the API, /sanctum, redirects of unknown paths) through the Hono app. Hono answering
// from memory reaches about half of nginx's rate (docs/engineering.md, speed notes), so static answers
// never touch Hono. Every process runs exactly this listener (docs/decisions/0022-one-process-model.md).
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { armBodyDeadline } from './http/body-deadline.ts';
import { capConnectionsPerClient } from './http/connection-cap.ts';
import { lingerOnEarlyClose, type LingerOptions } from './http/lingering-close.ts';
import type { Logger } from './log.ts';
import { isOpsPath, type OpsEndpoints } from './ops/endpoints.ts';
import { staticCounts } from './ops/metrics.ts';
import { REQUEST_ID_HEADER, requestContext, requestIdFor } from './ops/request-context.ts';
import { createMediaHandler, createStoredMediaHandler, MEDIA_PREFIX } from './static/media.ts';
import type { ObjectStore } from './storage/object-store/index.ts';
import { sendNotFound, sendPlain, sendSiteBuilding, serveStaticEntry } from './static/respond.ts';
import { decodeSafePath, pathOfUrl } from './static/safe-path.ts';
import type { StaticSite } from './static/static-site.ts';

export interface HttpServerOptions {
  app: { fetch: (request: Request, env: never) => Response | Promise<Response> };
  /** The live build, or null before the first one is ready; read per request so a publish swaps it. */
  getSite: () => StaticSite | null;
  /** Public uploads, served under /media/ (from this directory with the local store). */
  mediaDir: string;
  /** The store, when it is a bucket: /media/ is then answered from it (docs/decisions/0050-object-storage.md). */
  storage?: ObjectStore;
  log?: Logger;
  /** Debug (SERVED_BY_HEADER): every answer names the process that gave it in X-Served-By. */
  servedBy?: string;
  /** A request's headers must all arrive within this (slowloris); 60 s unless set. */
  headersTimeoutMs?: number;
  /** The Strict-Transport-Security value for every answer (an https site), or undefined for none. */
  strictTransportSecurity?: string;
  /** A request's body must have arrived within this unless an admin's upload lifts it (server/http/body-deadline.ts); 0: none. */
  bodyTimeoutMs?: number;
  /** Open connections one client address may hold in this process (server/http/connection-cap.ts); 0: no cap. */
  maxConnectionsPerClient?: number;
  /** /healthz, /readyz and /metrics (server/ops/endpoints.ts), answered before anything else. */
  ops?: OpsEndpoints;
  /** TRUST_PROXY: a request id the proxy sends in X-Request-Id is kept (server/ops/request-context.ts). */
  trustProxy?: boolean;
  /** How long a connection closed before its request's body arrived reads on (server/http/lingering-close.ts); nginx's values unless set. */
  linger?: LingerOptions;
}

export const SERVED_BY_HEADER = 'X-Served-By';

const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;

export function createRequestListener(options: HttpServerOptions): http.RequestListener {
  const { getSite, log, servedBy, strictTransportSecurity, bodyTimeoutMs = 0, ops, trustProxy = false } = options;
  const toApp = getRequestListener(options.app.fetch as Parameters<typeof getRequestListener>[0]);
  const serveMedia = options.storage?.kind === 's3' ? createStoredMediaHandler(options.storage) : createMediaHandler(options.mediaDir);

  // This process's own headers, the same on every answer; the request id joins them per request.
  const processHeaders = [
    ...(servedBy !== undefined ? [SERVED_BY_HEADER, servedBy] : []),
    // Here once rather than in every prepared header list, so the static pages, media, the plain answers
    // and the API all carry it.
    ...(strictTransportSecurity !== undefined ? ['Strict-Transport-Security', strictTransportSecurity] : []),
  ];
  /** Sets the request's and the process's headers; whatever writes the answer merges its own with them. */
  const stamp = (res: http.ServerResponse, requestId: string) => {
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (let i = 0; i < processHeaders.length; i += 2) res.setHeader(processHeaders[i] as string, processHeaders[i + 1] as string);
  };

  const fail = (res: http.ServerResponse, requestId: string, error: unknown) => {
    requestContext.run({ requestId }, () => log?.error('static answer failed', error));
    if (res.headersSent) return res.destroy();
    stamp(res, requestId);
    sendPlain(res, 500, 'Server error.\n', false);
  };

  return (req, res) => {
    armBodyDeadline(req, res, bodyTimeoutMs);
    // Every answer names its request, static ones too, so a report can be matched with the log.
    const requestId = requestIdFor(req.headers['x-request-id'], trustProxy);
    const method = req.method;
    const getOrHead = method === 'GET' || method === 'HEAD';
    const requestPath = getOrHead ? pathOfUrl(req.url ?? '/') : '';
    const head = method === 'HEAD';
    // /api is never static: a page a build might emit there must not shadow the API.
    const mayBeStatic = getOrHead && !requestPath.startsWith('/api/');
    let site: StaticSite | null;
    try {
      site = mayBeStatic ? getSite() : null;
      // The hot path: a file of the live build, its head written by one writeHead of the list prepared
      // when the build was loaded plus this request's id. No setHeader before it: once one header is set,
      // Node takes every header of writeHead's list through removeHeader and appendHeader one by one, a
      // fifth of a static answer's CPU (docs/scaling.md, "One list for a static answer's head"). The
      // operator's paths come first: no page of a build shadows them either.
      const entry = site && !isOpsPath(requestPath) ? site.lookup(requestPath) : undefined;
      if (site && entry) {
        staticCounts.page++;
        return serveStaticEntry(req, res, site, entry, head, [REQUEST_ID_HEADER, requestId, ...processHeaders]);
      }
    } catch (error) {
      return fail(res, requestId, error);
    }
    // Every other answer: the headers are set now and merged with whatever its writer adds.
    stamp(res, requestId);
    if (getOrHead && ops?.(req, res, requestPath, head)) return;
    if (mayBeStatic) {
      try {
        // Traversal attempts answer 404 here rather than the redirect Hono gives unknown paths.
        if (decodeSafePath(requestPath) === null) {
          staticCounts.not_found++;
          return sendNotFound(res, head);
        }
        if (requestPath.startsWith(MEDIA_PREFIX)) {
          staticCounts.media++;
          serveMedia(req, res, requestPath, head).catch((error: unknown) => fail(res, requestId, error));
          return;
        }
        if (!site && !requestPath.startsWith('/sanctum/')) {
          staticCounts.building++;
          return sendSiteBuilding(res, head);
        }
      } catch (error) {
        return fail(res, requestId, error);
      }
    }
    // Everything the app runs for this request (handlers, queries, mail) logs with its id.
    requestContext.run({ requestId }, () => void toApp(req, res));
  };
}

export function createHttpServer(options: HttpServerOptions): http.Server {
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  // Node checks the header and request deadlines on a timer (30 s by default), so a short deadline needs
  // a matching check interval or it is enforced up to 30 s late.
  const connectionsCheckingInterval = Math.max(100, Math.min(30_000, Math.floor(headersTimeout / 4)));
  const server = http.createServer({ connectionsCheckingInterval }, createRequestListener(options));
  // Node's default 5-minute limit on a whole request would cut a 2 GiB release upload on a slow link, and it
  // cannot tell routes apart. No server-wide limit; instead headers must arrive within their deadline
  // (slowloris), a body within BODY_TIMEOUT_MS unless it is an admin's upload (createRequestListener), and a
  // connection that sends nothing for 2 minutes is dropped (docs/decisions/0027-transport-limits.md).
  server.requestTimeout = 0;
  server.timeout = 120_000;
  server.headersTimeout = headersTimeout;
  capConnectionsPerClient(server, options.maxConnectionsPerClient ?? 0);
  // A refused upload's answer must reach a client that is still sending, not be lost to a reset.
  lingerOnEarlyClose(server, options.linger);
  return server;
}
