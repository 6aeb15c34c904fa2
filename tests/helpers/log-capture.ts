// Every log line the server writes during a test: the logger prints with console.log / console.error
// (server/log.ts), so a test that builds its context with LOG_LEVEL=debug and calls this sees them all.
// Used to prove that secrets (license keys) never reach a log (docs/licensing.md).
import { vi } from 'vitest';

export interface LogCapture {
  lines: string[];
  restore(): void;
}

export function captureLogLines(): LogCapture {
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === 'string' ? arg : arg instanceof Error ? (arg.stack ?? arg.message) : JSON.stringify(arg))).join(' '));
  };
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(record));
  return {
    lines,
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
