// A web worker's way to the main process (docs/decisions/0014-web-workers.md): every request the static
// fast path does not answer is sent again on the main process's unix socket and the answer streamed back.
// Both bodies are piped, so a 2 GiB upload or download never sits in memory. Method, target, headers
// (Host, Origin, Cookie, Range…), status and every Set-Cookie pass unchanged; hop-by-hop headers describe
// one connection, not the request, and are not copied. The client's address travels in CLIENT_IP_HEADER,
// after any copy the client sent itself has been dropped.
import http from 'node:http';
import type { Logger } from '../log.ts';
import { sendPlain } from '../static/respond.ts';
import { CLIENT_IP_HEADER } from './client-ip.ts';

/** RFC 9110 7.6.1, plus Expect: this worker already answered `100 Continue` to the client itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'http2-settings', 'expect']);
/** The main process keeps an idle connection for 50 s (server.ts); we stop reusing one well before that. */
const IDLE_SOCKET_MS = 30_000;
/**
 * When the main process answers before an upload has ended (a 413 from its announced length), the rest
 * of the body is read and dropped for this long, as the main process itself does, then the connection
 * is closed: the client sees the answer, and a 2 GiB body is not read for nothing.
 */
const DRAIN_MS = 500;
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

export interface Forwarder {
  listener: http.RequestListener;
  /** Closes the idle connections to the main process. */
  close(): void;
}

export interface ForwarderOptions {
  socketPath: string;
  log?: Logger;
  /** Debug (SERVED_BY_HEADER): forwarded answers say `main via <servedBy>`. */
  servedBy?: string;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const { socketPath, log, servedBy } = options;
  const agent = new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });

  function forward(req: http.IncomingMessage, res: http.ServerResponse, retried: boolean): void {
    const head = req.method === 'HEAD';
    let upstream: http.ClientRequest;
    try {
      upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers: requestHeaders(req) });
    } catch {
      // A target or header value node's client refuses to send (its checks are stricter than the parser's).
      sendPlain(res, 400, 'Bad request.\n', head);
      return;
    }
    let answered = false;
    let clientGone = false;
    upstream.on('response', (answer) => {
      answered = true;
      res.writeHead(answer.statusCode ?? 502, responseHeaders(answer.rawHeaders, servedBy));
      answer.pipe(res);
      // The main process went away in the middle of its answer: the client must not take it as complete.
      answer.on('error', () => res.destroy());
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (clientGone) return;
      if (answered) {
        // It answered and then closed while the body was still coming (see DRAIN_MS): stop sending.
        req.unpipe(upstream);
        req.resume();
        return;
      }
      // A kept-alive connection the main process closed just as we reused it: safe to send again once
      // when there is no body that could already have been consumed.
      if (!retried && upstream.reusedSocket && error.code === 'ECONNRESET' && hasNoBody(req)) {
        forward(req, res, true);
        return;
      }
      log?.warn(`web worker: forwarding ${req.method} ${req.url} failed: ${error.code ?? error.message}`);
      if (!res.headersSent) sendPlain(res, 502, 'The server is restarting. Please try again in a moment.\n', head, ['Retry-After', '2']);
      else res.destroy();
    });
    // The client went away: so does the request to the main process (an upload there is then abandoned).
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
    req.on('close', () => {
      if (req.complete) return;
      clientGone = true;
      upstream.destroy();
    });
    res.on('finish', () => {
      if (!req.complete) drainRest(req);
    });
    if (retried) upstream.end();
    else req.pipe(upstream);
  }

  return {
    listener: (req, res) => forward(req, res, false),
    close: () => agent.destroy(),
  };
}

function hasNoBody(req: http.IncomingMessage): boolean {
  return req.readableEnded && req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0';
}

function requestHeaders(req: http.IncomingMessage): string[] {
  // Connection may name further headers that belong to this hop only.
  const named = new Set(
    String(req.headers.connection ?? '')
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== '' && token !== 'host'),
  );
  const raw = req.rawHeaders;
  const headers: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === CLIENT_IP_HEADER) continue;
    headers.push(name, raw[i + 1] as string);
  }
  headers.push(CLIENT_IP_HEADER, req.socket.remoteAddress ?? '');
  return headers;
}

function responseHeaders(raw: string[], servedBy: string | undefined): string[] {
  const headers: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    const value = raw[i + 1] as string;
    headers.push(name, servedBy !== undefined && lower === 'x-served-by' ? `${value} via ${servedBy}` : value);
  }
  return headers;
}

function drainRest(req: http.IncomingMessage): void {
  let bytes = 0;
  const close = () => {
    clearTimeout(timer);
    req.socket.destroySoon();
  };
  const timer = setTimeout(close, DRAIN_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_MAX_BYTES) close();
  });
  req.on('end', () => clearTimeout(timer));
  req.on('error', () => clearTimeout(timer));
  req.resume();
}
