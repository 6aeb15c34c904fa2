// A tiny levelled logger: one line per event on stderr/stdout, quiet in tests unless asked.
import type { Config } from './env.ts';

type Level = 'error' | 'warn' | 'info' | 'debug';
const rank: Record<Config['logLevel'], number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export interface Logger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
}

/**
 * `capture` receives every line at every level, whatever `level` lets through: tests read what the code
 * would log (e.g. that no license key ever reaches a log line, docs/licensing.md) without printing it.
 */
export function createLogger(level: Config['logLevel'], capture?: (line: string) => void): Logger {
  const emit = (at: Level, message: string, detail?: unknown) => {
    if (rank[at] > rank[level] && !capture) return;
    const suffix = detail === undefined ? '' : ` ${detail instanceof Error ? (detail.stack ?? detail.message) : JSON.stringify(detail)}`;
    const line = `${new Date().toISOString()} ${at.toUpperCase()} ${message}${suffix}`;
    capture?.(line);
    if (rank[at] > rank[level]) return;
    if (at === 'error' || at === 'warn') console.error(line);
    else console.log(line);
  };
  return {
    error: (m, d) => emit('error', m, d),
    warn: (m, d) => emit('warn', m, d),
    info: (m, d) => emit('info', m, d),
    debug: (m, d) => emit('debug', m, d),
  };
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
