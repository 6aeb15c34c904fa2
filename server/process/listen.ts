// Binding, closing and draining a serving process's HTTP server. Every serving process binds the public
// port itself (SO_REUSEPORT when there are several), so each one's server really listens and Node enforces
// its header deadline and idle timeouts on every connection (docs/decisions/0022-one-process-model.md).
import type http from 'node:http';
import net from 'node:net';

export function listen(server: net.Server, options: net.ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * With SO_REUSEPORT a second server on a busy port would not fail but silently share it: bind once without
 * the option first, so a server already listening there (ours or another program) still gives EADDRINUSE.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  const probe = net.createServer();
  try {
    await listen(probe, { port, host });
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

/** How often a closing server ends connections that have just finished their last answer. */
const DRAIN_CHECK_MS = 50;

/**
 * Stops accepting, ends idle keep-alive connections at once and each busy one as soon as its answer is
 * out; resolves when none is left. Uploads in flight finish (the caller bounds the wait).
 */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => server.closeIdleConnections(), DRAIN_CHECK_MS);
    server.close(() => {
      clearInterval(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
