// Who hears of what a visitor sends, and of what needs an admin (a disabled webhook endpoint) (docs/product/admin.md#inbox; issue 14, part 1): every admin who can sign in, plus
// NOTIFY_EMAIL, plus ADMIN_EMAIL as before (it is the seeded admin's address, and stays a notice address after that
// admin's own address changes, as it was before the inbox).
// The item is already stored in the inbox when this runs, so a mail that fails, or nobody to send it to, loses nothing.
import type { AppContext } from '../context.ts';
import { listAdminEmails } from '../db/queries/users.ts';
import { deliverSafely, type MailContent } from './transport.ts';

type NotifyContext = Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>;

/** The admins' addresses, ADMIN_EMAIL and NOTIFY_EMAIL, each once whatever its case. */
export function notificationRecipients(ctx: Pick<NotifyContext, 'db' | 'config'>): string[] {
  const seen = new Map<string, string>();
  const configured = [ctx.config.adminEmail, ctx.config.notifyEmail].filter((address): address is string => Boolean(address));
  for (const address of [...listAdminEmails(ctx.db), ...configured]) {
    const key = address.toLowerCase();
    if (!seen.has(key)) seen.set(key, address);
  }
  return [...seen.values()];
}

/**
 * One message per recipient (a failure for one address does not stop the others, and no admin sees the
 * others' addresses); never throws. Answers how many were handed over. Not through sendSafely: the daily
 * cap per mailbox (docs/product/constants.md#mails) is for mails a visitor can make the site send to
 * anyone; these go to the site's own people, and the forms that cause them have their own limits.
 */
export async function notifyAdmins(ctx: NotifyContext, content: MailContent): Promise<number> {
  const recipients = notificationRecipients(ctx);
  if (recipients.length === 0) {
    ctx.log.warn(`Mail "${content.subject}" not sent: there is no admin and NOTIFY_EMAIL is not set; it waits in the admin inbox`);
    return 0;
  }
  const sent = await Promise.all(recipients.map((to) => deliverSafely(ctx.mailer, { ...content, to }, ctx.log)));
  return sent.filter(Boolean).length;
}
