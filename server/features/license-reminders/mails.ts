// The trial expiry reminders (issue 12, item 8; docs/licensing-reminders.md): 7 days and 1 day before a
// trial expires, and once it has expired. Each carries the key (the owner may need to type it in again),
// the expiry and the way to the downloads page, in the one mail layout (server/mail/layout.ts).
import { greeting } from '../../mail/greeting.ts';
import { renderHtml, renderText, type MailBody, type MailSite } from '../../mail/layout.ts';
import type { MailContent } from '../../mail/transport.ts';
import type { ReminderKind } from './queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReminderMailInput {
  kind: ReminderKind;
  name: string;
  key: string;
  /** ISO time the trial ends (or ended). */
  expireDate: string;
  /** Milliseconds since the epoch: a reminder sent late (after downtime) says how long is really left. */
  now: number;
}

/** As the other license mails write times: `2026-01-31 14:05 UTC`. */
export function reminderDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function headline(kind: ReminderKind, expireDate: string, now: number): string {
  if (kind === 'expired') return 'Your trial license has expired';
  const daysLeft = Math.max(1, Math.ceil((Date.parse(expireDate) - now) / DAY_MS));
  return daysLeft <= 1 ? 'Your trial license expires within a day' : `Your trial license expires in ${daysLeft} days`;
}

export function licenseReminderEmail(site: MailSite, input: ReminderMailInput): MailContent {
  const when = reminderDate(input.expireDate);
  const expired = input.kind === 'expired';
  const heading = headline(input.kind, input.expireDate, input.now);
  const body: MailBody = {
    heading,
    paragraphs: [
      greeting(input.name),
      expired
        ? `Your trial license for ${site.siteName} expired on ${when}. The software no longer accepts it.`
        : `Your trial license for ${site.siteName} expires on ${when}. Until then the software keeps working with the key below.`,
    ],
    details: [
      ['License key', input.key],
      [expired ? 'Expired' : 'Expires', when],
    ],
    action: { label: 'Go to downloads', url: `${site.siteUrl}/downloads` },
    closing: [
      // The mail comes from a no-reply address: the contact page is the way to reach us.
      `${expired ? 'To go on using the software' : 'To keep using the software after that'}, ask us about a full license: ${site.siteUrl}/contact`,
    ],
  };
  return { subject: `${site.siteName}: ${heading}`, text: renderText(site, body), html: renderHtml(site, body) };
}
