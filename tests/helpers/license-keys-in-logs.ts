// Issue 12, item 1: license keys never appear in logs. The one check the licensing tests share: every key
// in the database against every line captured — the test context's logger captures every line at every
// level without printing (tests/helpers/test-context.ts), and `consoleLines` catches anything else that
// printed through the console (a stray console call). The logger itself (pino, server/log.ts) writes to the
// file descriptor, not through the console: its lines are the capture's. tests/server/ops/log-redaction.test.ts
// extends this check to every other secret (passwords, tokens, cookies, links).
import { expect, vi } from 'vitest';
import type { Db } from '../../server/db/client.ts';
import { licenses } from '../../server/db/schema.ts';

export function licenseKeysIn(db: Db): string[] {
  return db
    .select({ key: licenses.key })
    .from(licenses)
    .all()
    .flatMap((row) => (row.key ? [row.key] : []));
}

export function expectNoLicenseKeyIn(lines: readonly string[], db: Db): void {
  for (const key of licenseKeysIn(db)) expect(lines.filter((line) => line.includes(key))).toEqual([]);
}

/** Records what is printed to the console (and still lets nothing through); restore() ends it. */
export function captureConsole(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const record = (...args: unknown[]) =>
    void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : arg instanceof Error ? (arg.stack ?? arg.message) : JSON.stringify(arg))).join(' '));
  const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(record));
  return { lines, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}
