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

export interface CloseOptions {
  /** When (Date.now() value) the connections still busy are cut; without it the wait has no end. */
  deadline?: number;
  /** Told once when the deadline cut connections, with how many. */
  onCut?: (connections: number) => void;
}

/**
 * Stops accepting, ends idle keep-alive connections at once and each busy one as soon as its answer is
 * out; resolves when none is left. Uploads in flight finish; those still busy at the deadline are cut
 * (docs/decisions/0033-graceful-stop.md).
 */
export function closeServer(server: http.Server, options: CloseOptions = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => server.closeIdleConnections(), DRAIN_CHECK_MS);
    const cut =
      options.deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              server.getConnections((_error, count) => {
                if (count > 0) options.onCut?.(count);
                server.closeAllConnections();
              });
            },
            Math.max(0, options.deadline - Date.now()),
          );
    server.close(() => {
      clearInterval(timer);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
