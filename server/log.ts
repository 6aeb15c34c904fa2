// The server's logger (docs/decisions/0031-observability.md): pino writing one JSON object a line on stdout
// (twelve-factor: the platform collects the stream), or readable lines through pino-pretty, a development
// dependency, when LOG_FORMAT=pretty (the default under NODE_ENV=development). Every line of a request carries
// its id (server/ops/request-context.ts), and everything goes through the redaction of server/ops/redact.ts.
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type StreamEntry } from 'pino';
import type { Config } from './env.ts';
import { currentRequestId } from './ops/request-context.ts';
import { redactText, redactValue, serializeError, type RedactOptions } from './ops/redact.ts';

type Level = 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
}

export interface LoggerOptions {
  /** Readable lines instead of JSON (when pino-pretty is installed: it is a development dependency). */
  pretty?: boolean;
  /** Development: links in messages stay whole, so the outbox's verification and reset links can be followed. */
  keepLinks?: boolean;
}

/** The logger options a server process takes from its configuration. */
export function loggerOptions(config: Pick<Config, 'logFormat' | 'logMailLinks'>): LoggerOptions {
  // Links are kept exactly where the outbox mailer logs them on purpose (server/mail/transport.ts).
  return { pretty: config.logFormat === 'pretty', keepLinks: config.logMailLinks };
}

/**
 * `capture` receives every line (JSON) at every level, whatever `level` lets through: tests read what the
 * code would log (that no secret ever reaches a log line, tests/server/ops/log-redaction.test.ts) without printing it.
 */
export function createLogger(level: Config['logLevel'], capture?: (line: string) => void, options: LoggerOptions = {}): Logger {
  const streams: StreamEntry[] = [];
  if (level !== 'silent') streams.push({ level, stream: options.pretty ? (prettyStream() ?? pino.destination(1)) : pino.destination(1) });
  if (capture) streams.push({ level: 'debug', stream: { write: (line: string) => capture(line.trimEnd()) } });
  const logger = pino(
    {
      level: capture ? 'debug' : level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `err` is already serialised, and redacted, by serializeError (fieldsOf below).
      serializers: { err: (value: unknown) => value },
      formatters: { level: (label) => ({ level: label }) },
      // The request this line belongs to, if any: read per line from the async context. A fresh object
      // each time: pino merges the line's fields into it.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { req_id: requestId };
      },
    },
    pino.multistream(streams),
  );
  const redaction: RedactOptions = { keepLinks: options.keepLinks };
  const emit = (at: Level, message: string, detail?: unknown) => {
    if (!logger.isLevelEnabled(at)) return;
    const text = redactText(message, redaction);
    if (detail === undefined) logger[at](text);
    else logger[at](fieldsOf(detail, redaction), text);
  };
  return {
    error: (m, d) => emit('error', m, d),
    warn: (m, d) => emit('warn', m, d),
    info: (m, d) => emit('info', m, d),
    debug: (m, d) => emit('debug', m, d),
  };
}

/** An error becomes `err` (with its stack), a plain object's fields go on the line, anything else is `detail`. */
function fieldsOf(detail: unknown, redaction: RedactOptions): Record<string, unknown> {
  if (detail instanceof Error) return { err: serializeError(detail, redaction) };
  if (detail !== null && typeof detail === 'object' && Object.getPrototypeOf(detail) === Object.prototype) {
    return redactValue(detail, redaction) as Record<string, unknown>;
  }
  return { detail: redactValue(detail, redaction) };
}

/** pino-pretty writing synchronously to stdout, or null where it is not installed (a production install). */
function prettyStream(): DestinationStream | null {
  try {
    const require = createRequire(import.meta.url);
    const pretty = require('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
    return pretty({ sync: true, destination: 1, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  } catch {
    return null;
  }
}

/** The same logger with every message prefixed (e.g. `worker 1: `, read per message: a process learns its name after it starts), so a process's lines can be told apart. */
export function withPrefix(inner: Logger, prefix: () => string): Logger {
  return {
    error: (message, detail) => inner.error(prefix() + message, detail),
    warn: (message, detail) => inner.warn(prefix() + message, detail),
    info: (message, detail) => inner.info(prefix() + message, detail),
    debug: (message, detail) => inner.debug(prefix() + message, detail),
  };
}
