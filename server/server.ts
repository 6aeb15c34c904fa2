// The HTTP front: the live static build and /media on a raw node fast path, everything else (the API,
// /sanctum, redirects of unknown paths) through the Hono app. The measurements of docs/engineering.md#speed-notes put Hono at 0.5× nginx even
// from memory; the issue asks for at least that, so static answers never touch Hono.
//
// The same listener runs in web workers (docs/decisions/0014-web-workers.md), where "everything else"
// is forwarded to the main process instead of a local Hono app.
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { markForwardedByWebWorker } from './http/client-ip.ts';
import type { Logger } from './log.ts';
import { createMediaHandler, MEDIA_PREFIX } from './static/media.ts';
import { sendNotFound, sendPlain, sendSiteBuilding, serveStaticEntry } from './static/respond.ts';
import { decodeSafePath, pathOfUrl } from './static/safe-path.ts';
import type { StaticSite } from './static/static-site.ts';

interface CommonOptions {
  /** The live build, or null before the first one is ready; read per request so a publish swaps it. */
  getSite: () => StaticSite | null;
  /** Public uploads, served under /media/. */
  mediaDir: string;
  log?: Logger;
  /** Debug (SERVED_BY_HEADER): every answer names the process that gave it in X-Served-By. */
  servedBy?: string;
}

export type HttpServerOptions = CommonOptions &
  (
    | { app: { fetch: (request: Request, env: never) => Response | Promise<Response> } }
    | {
        /**
         * A web worker's way to the main process. Also used while the worker has no site loaded yet, so a
         * reader gets what the main process has (its site, or its "being built" page).
         */
        forward: http.RequestListener;
      }
  );

export const SERVED_BY_HEADER = 'X-Served-By';

export function createRequestListener(options: HttpServerOptions): http.RequestListener {
  const { getSite, log, servedBy } = options;
  const fallback = 'app' in options ? getRequestListener(options.app.fetch as Parameters<typeof getRequestListener>[0]) : options.forward;
  const answerWithoutSite = !('forward' in options);
  const serveMedia = createMediaHandler(options.mediaDir);

  const fail = (res: http.ServerResponse, error: unknown) => {
    log?.error('static answer failed', error);
    if (!res.headersSent) sendPlain(res, 500, 'Server error.\n', false);
    else res.destroy();
  };

  return (req, res) => {
    if (servedBy !== undefined) res.setHeader(SERVED_BY_HEADER, servedBy);
    const method = req.method;
    if (method === 'GET' || method === 'HEAD') {
      const requestPath = pathOfUrl(req.url ?? '/');
      // /api is never static: a page a build might emit under /api must not shadow the API.
      if (!requestPath.startsWith('/api/')) {
        const head = method === 'HEAD';
        try {
          const site = getSite();
          const entry = site?.lookup(requestPath);
          if (site && entry) return serveStaticEntry(req, res, site, entry, head);
          // Traversal attempts answer 404 here rather than the redirect Hono gives unknown paths.
          if (decodeSafePath(requestPath) === null) return sendNotFound(res, head);
          // Media files are immutable uploads read straight from disk: workers serve them too.
          if (requestPath.startsWith(MEDIA_PREFIX)) {
            serveMedia(req, res, requestPath, head).catch((error: unknown) => fail(res, error));
            return;
          }
          if (!site && answerWithoutSite && !requestPath.startsWith('/sanctum/')) return sendSiteBuilding(res, head);
        } catch (error) {
          return fail(res, error);
        }
      }
    }
    void fallback(req, res);
  };
}

export function createHttpServer(options: HttpServerOptions): http.Server {
  return createServerFor(createRequestListener(options));
}

/** A public-port server for a listener made by createRequestListener. */
export function createServerFor(listener: http.RequestListener): http.Server {
  return withTimeouts(http.createServer(listener));
}

/**
 * The main process's listener for its web workers, on a unix socket: the same answers as the public
 * port, and the client address the worker names is believed (only here, see http/client-ip.ts).
 */
export function createWorkerFacingServer(listener: http.RequestListener): http.Server {
  const server = withTimeouts(
    http.createServer((req, res) => {
      markForwardedByWebWorker(req);
      listener(req, res);
    }),
  );
  // Workers keep their connections open for reuse and drop idle ones after 30 s (http/forward.ts); the
  // server must not close one first, or a request sent on it at that moment would fail.
  server.keepAliveTimeout = 50_000;
  return server;
}

function withTimeouts(server: http.Server): http.Server {
  // Node's default 5-minute limit on a whole request would cut a 2 GiB release upload on a slow link.
  // No total limit; instead a connection that sends nothing for 2 minutes is dropped, and headers
  // must arrive within a minute (slowloris).
  server.requestTimeout = 0;
  server.timeout = 120_000;
  server.headersTimeout = 60_000;
  return server;
}
