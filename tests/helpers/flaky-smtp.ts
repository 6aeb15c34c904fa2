// A real SMTP server whose outages a test controls: closed (connections refused), refusing sessions with
// 421 after connecting, or refusing chosen recipients with 451 once. It keeps every message it accepts.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type SmtpMode = 'accept' | 'refuse-session';

export interface FlakySmtp {
  /** smtp://127.0.0.1:PORT; the port stays the same across stop() and start(). */
  readonly url: string;
  mode: SmtpMode;
  /** Addresses refused once with "451 try again later" at RCPT TO. */
  readonly greylistOnce: Set<string>;
  readonly messages: Array<{ to: string[]; raw: string }>;
  /** Sessions that reached the server (accepted or refused). */
  readonly connections: number;
  /** Starts listening again on the same port. */
  start(): Promise<void>;
  /** Stops listening: connections are refused until start(). */
  stop(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export interface FlakySmtpOptions {
  /** A slow mail server: each message is answered "250 OK" this long after its data arrived (kept once answered). */
  acceptDelayMs?: number;
}

export async function createFlakySmtp(options: FlakySmtpOptions = {}): Promise<FlakySmtp> {
  const messages: FlakySmtp['messages'] = [];
  const greylistOnce = new Set<string>();
  let connections = 0;
  let port = 0;
  let server: SMTPServer | null = null;

  const state = {
    mode: 'accept' as SmtpMode,
  };

  const makeServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // No reverse DNS lookup of 127.0.0.1 on the closed network. (The server still waits 100 ms before its
      // greeting to catch early talkers: about 0.1 s a message.)
      disableReverseLookup: true,
      // The product pools SMTP connections: stop() must not wait out a pooled idle client (30 s by default).
      closeTimeout: 50,
      onConnect(_session, callback) {
        connections += 1;
        if (state.mode === 'refuse-session') return callback(smtpError('Service not available, try again later', 421));
        callback();
      },
      onRcptTo(address, _session, callback) {
        const email = address.address.toLowerCase();
        if (greylistOnce.delete(email)) return callback(smtpError('Greylisted, try again later', 451));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const accept = () => {
            messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
            callback();
          };
          if (options.acceptDelayMs) setTimeout(accept, options.acceptDelayMs);
          else accept();
        });
      },
    });

  const start = async () => {
    if (server) return;
    const next = makeServer();
    await new Promise<void>((resolve, reject) => {
      next.server.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.server.address() as AddressInfo).port;
    server = next;
  };
  const stop = async () => {
    const current = server;
    server = null;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await start();
  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get mode() {
      return state.mode;
    },
    set mode(mode: SmtpMode) {
      state.mode = mode;
    },
    greylistOnce,
    messages,
    get connections() {
      return connections;
    },
    start,
    stop,
  };
}
