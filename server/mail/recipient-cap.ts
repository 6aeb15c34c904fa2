// The daily cap on account mails to one address (issue 17, item 3; docs/product/constants.md#rate-limits).
// Every mail the site sends because someone asked on the site (verification, resend, reset, lockout
// notice, license request confirmation, …) goes through sendSafely, which counts it here, keyed by the
// recipient's normalised address: however the requests are spread (many accounts, many client addresses,
// many processes), one mailbox gets at most ACCOUNT_MAILS_PER_DAY such mails a day. Mailings (their own
// unsubscribe) and notices to the site's admins do not count (docs/decisions/0026-mail-abuse.md).
import type { Db } from '../db/client.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';

export const RECIPIENT_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The mailbox an address reaches: lower case, the address inside "Name <…>", and without a "+tag"
 * (RFC 5233 subaddressing, which nearly every provider delivers to the same mailbox), so that
 * victim+1@, victim+2@ … share one count.
 */
export function recipientKey(address: string): string {
  const inBrackets = /<([^<>]+)>\s*$/.exec(address);
  const plain = (inBrackets?.[1] ?? address).trim().toLowerCase();
  const at = plain.lastIndexOf('@');
  if (at <= 0) return plain;
  const local = plain.slice(0, at);
  const base = local.split('+')[0] || local;
  return `${base}@${plain.slice(at + 1)}`;
}

export interface RecipientCap {
  /** Counts one mail to the address; false (nothing counted) once it had `limit` in the last 24 hours. */
  admit(address: string): boolean;
}

export function createRecipientCap(options: { db: Db; now: () => number; limit: number }): RecipientCap {
  const limiter = createRateLimiter({ db: options.db, now: options.now, name: 'mail-recipient', limit: options.limit, windowMs: RECIPIENT_CAP_WINDOW_MS });
  return { admit: (address) => limiter.consume(recipientKey(address)).allowed };
}
