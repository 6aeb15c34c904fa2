// The one HTTP server: the live static build and /media on a raw node fast path, everything else
// (the API, /sanctum, redirects of unknown paths) through the Hono app. DESIGN.md measured Hono at 0.5×
// nginx even from memory; the issue asks for at least that, so static answers never touch Hono.
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Logger } from './log.ts';
import { createMediaHandler, MEDIA_PREFIX } from './static/media.ts';
import { sendNotFound, sendPlain, sendSiteBuilding, serveStaticEntry } from './static/respond.ts';
import { decodeSafePath, pathOfUrl } from './static/safe-path.ts';
import type { StaticSite } from './static/static-site.ts';

export interface HttpServerOptions {
  app: { fetch: (request: Request, env: never) => Response | Promise<Response> };
  /** The live build, or null before the first one is ready; read per request so a publish swaps it. */
  getSite: () => StaticSite | null;
  /** Public uploads, served under /media/. */
  mediaDir: string;
  log?: Logger;
}

export function createHttpServer(options: HttpServerOptions): http.Server {
  const { getSite, log } = options;
  const toHono = getRequestListener(options.app.fetch as Parameters<typeof getRequestListener>[0]);
  const serveMedia = createMediaHandler(options.mediaDir);

  const fail = (res: http.ServerResponse, error: unknown) => {
    log?.error('static answer failed', error);
    if (!res.headersSent) sendPlain(res, 500, 'Server error.\n', false);
    else res.destroy();
  };

  const server = http.createServer((req, res) => {
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
          if (requestPath.startsWith(MEDIA_PREFIX)) {
            serveMedia(req, res, requestPath, head).catch((error: unknown) => fail(res, error));
            return;
          }
          if (!site && !requestPath.startsWith('/sanctum/')) return sendSiteBuilding(res, head);
        } catch (error) {
          return fail(res, error);
        }
      }
    }
    void toHono(req, res);
  });
  // Node's default 5-minute limit on a whole request would cut a 2 GiB release upload on a slow link.
  // No total limit; instead a connection that sends nothing for 2 minutes is dropped, and headers
  // must arrive within a minute (slowloris).
  server.requestTimeout = 0;
  server.timeout = 120_000;
  server.headersTimeout = 60_000;
  return server;
}
