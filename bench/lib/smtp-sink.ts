// A local SMTP server that accepts and counts messages, timing the first and the last: the mailing bench's
// peer. No TLS, no auth, loopback only; message bodies are read and dropped.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  /** Forgets what arrived so far: the counts and times start again from the next message. */
  reset(): void;
  received(): number;
  firstAt(): number | null;
  lastAt(): number | null;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 1000,
    // The sink answers on loopback only: a reverse DNS lookup per connection would time the resolver, not us.
    disableReverseLookup: true,
    // The product keeps a pooled connection open; closing the sink must not wait for it.
    closeTimeout: 50,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        count++;
        last = performance.now();
        first ??= last;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    reset: () => {
      count = 0;
      first = null;
      last = null;
    },
    received: () => count,
    firstAt: () => first,
    lastAt: () => last,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
