// Banned e-mail domains (SPEC.md 2.7, 3). Registration refuses an address whose domain, or any parent of
// it, is listed: banning `spam.com` also bans `mail.spam.com`.
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { bannedDomains } from '../schema.ts';

/**
 * `a.b.example.com` → [`a.b.example.com`, `b.example.com`, `example.com`, `com`], lower-cased, without a
 * trailing dot (`example.com.` is the same domain in DNS).
 */
export function domainAndParents(domain: string): string[] {
  const labels = domain.trim().toLowerCase().replace(/\.+$/, '').split('.').filter(Boolean);
  return labels.map((_label, index) => labels.slice(index).join('.'));
}

/** Whether the domain or one of its parents is banned, compared case-insensitively (admins may type any case). */
export function isDomainBanned(db: Db, domain: string): boolean {
  const candidates = domainAndParents(domain);
  if (candidates.length === 0) return false;
  const found = db
    .select({ id: bannedDomains.id })
    .from(bannedDomains)
    .where(inArray(sql`lower(trim(${bannedDomains.domain}, ' .'))`, candidates))
    .limit(1)
    .get();
  return found !== undefined;
}

/** The domain part of an e-mail address (after the last @). */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}
