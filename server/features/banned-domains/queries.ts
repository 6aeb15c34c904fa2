// Banned e-mail domains (docs/product/admin.md#admin-screen, docs/product/data-model.md). Registration refuses an address whose domain, or any parent of
// it, is listed: banning `spam.com` also bans `mail.spam.com`.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bannedDomains } from '../../db/schema.ts';

export type BannedDomain = typeof bannedDomains.$inferSelect;

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

export function listBannedDomains(db: Db): BannedDomain[] {
  return db.select().from(bannedDomains).orderBy(asc(bannedDomains.id)).all();
}

/** The row banning exactly this (normalised) domain, compared the way isDomainBanned compares. */
export function findBannedDomain(db: Db, domain: string): BannedDomain | undefined {
  return db
    .select()
    .from(bannedDomains)
    .where(sql`lower(trim(${bannedDomains.domain}, ' .')) = ${domain}`)
    .get();
}

export function insertBannedDomain(db: Db, domain: string, atIso: string): BannedDomain {
  return db.insert(bannedDomains).values({ domain, created_at: atIso, updated_at: atIso }).returning().get();
}

export function deleteBannedDomain(db: Db, id: number): BannedDomain | undefined {
  return db.delete(bannedDomains).where(eq(bannedDomains.id, id)).returning().get();
}
