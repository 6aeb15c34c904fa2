// E-mail verification links (issue 3, item 4): `/api/auth/email/verify/{id}/{hash}?expires=…&signature=…`,
// signed (server/auth/signed-urls.ts) and valid for LINK_LIFETIME_MINUTES. `hash` is the SHA-256 of the
// address the link was sent to, so a link dies when the account's e-mail changes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { sendSafely } from '../mail/transport.ts';
import { LINK_LIFETIME_MINUTES, verificationEmail } from '../mail/templates.ts';
import { signUrl } from './signed-urls.ts';

export const VERIFICATION_PATH = '/api/auth/email/verify';

/** Case-insensitive like the unique index: only a real change of address voids the link. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

export function emailHashMatches(email: string, hash: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(hash)) return false;
  return timingSafeEqual(Buffer.from(emailHash(email), 'hex'), Buffer.from(hash, 'hex'));
}

export function verificationLink(ctx: Pick<AppContext, 'config' | 'db' | 'now'>, user: Pick<User, 'id' | 'email'>): string {
  const path = `${VERIFICATION_PATH}/${user.id}/${emailHash(user.email)}`;
  return `${ctx.config.siteUrl}${signUrl(ctx, path, { expiresAt: ctx.now() + LINK_LIFETIME_MINUTES * 60_000 })}`;
}

/** Mails a fresh link to the user's current address; false (logged) when the mail could not be sent. */
export function sendVerificationEmail(ctx: Pick<AppContext, 'config' | 'db' | 'now' | 'mailer' | 'log'>, user: Pick<User, 'id' | 'email'>): Promise<boolean> {
  const content = verificationEmail(ctx.config, { link: verificationLink(ctx, user) });
  return sendSafely(ctx.mailer, { to: user.email, ...content }, ctx.log);
}
