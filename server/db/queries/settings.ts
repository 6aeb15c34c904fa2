// The settings key/value table: values the server must keep across restarts (seed marker, secrets).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { settings } from '../schema.ts';

export function getSetting(db: Db, key: string): string | undefined {
  return db.select().from(settings).where(eq(settings.key, key)).get()?.value;
}

export function setSetting(db: Db, key: string, value: string): void {
  db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
}

/** Adds one to a numeric setting (0 when absent) in one statement, so two processes never lose an increment. */
export function incrementCounterSetting(db: Db, key: string): number {
  const row = db
    .insert(settings)
    .values({ key, value: '1' })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`CAST(${settings.value} AS INTEGER) + 1` } })
    .returning({ value: settings.value })
    .get();
  return Number(row?.value);
}

export function deleteSetting(db: Db, key: string): void {
  db.delete(settings).where(eq(settings.key, key)).run();
}
