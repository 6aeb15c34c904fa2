// Secrets the server makes for itself: 32 random bytes generated on first use and kept in the settings
// table, so every restart (and every process on the same database) signs and verifies with the same key.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { writeTransaction } from '../db/client.ts';
import { getSetting, setSetting } from '../db/queries/settings.ts';

// Per database, then per key: the app's context and a test's context on one file share one secret.
const cache = new WeakMap<Db, Map<string, string>>();

export function getServerSecret(db: Db, key: string): string {
  let secrets = cache.get(db);
  if (!secrets) cache.set(db, (secrets = new Map()));
  const cached = secrets.get(key);
  if (cached) return cached;
  // In one transaction, so two processes starting together end up with the same secret.
  const secret = writeTransaction(db, () => {
    const stored = getSetting(db, key);
    if (stored) return stored;
    const fresh = randomBytes(32).toString('base64url');
    setSetting(db, key, fresh);
    return fresh;
  });
  secrets.set(key, secret);
  return secret;
}
