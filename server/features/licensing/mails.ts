// The mails the owner gets about their license: the change mail (issue 24, item 5) below. The mail a user gets when a license is granted (issue 12, item 8: "Granting a license mails the key"):
// created active, switched to active, or granted at once by Request License. The key is in the body only:
// subjects and links are written to the logs (server/mail/transport.ts), keys never are (docs/licensing.md).
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { greeting } from '../../mail/greeting.ts';
import { renderHtml, renderText, type MailSite } from '../../mail/layout.ts';
import { sendSafely, type MailContent } from '../../mail/transport.ts';
import { changeText, licenseEventText } from '../../../common/license-history.ts';
import type { LicenseChangeEvent } from './events.ts';

export interface GrantedLicense {
  key: string | null;
  typeName: string;
  /** ISO time, or null for a license that does not expire. */
  expireDate: string | null;
  maxMachines: number;
}

/** "2026-02-01 12:00 UTC": how the mail states the expiry. */
export function mailDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function licenseGrantedWithKeyEmail(site: MailSite, input: { name: string; license: GrantedLicense }): MailContent {
  const { license } = input;
  const expiry = license.expireDate ? `It is valid until ${mailDate(license.expireDate)}.` : 'It does not expire.';
  const details: Array<[string, string]> = [];
  if (license.key) details.push(['License key', license.key]);
  details.push(['Machines', `up to ${license.maxMachines}`], ['Valid until', license.expireDate ? mailDate(license.expireDate) : 'no expiry']);
  const body = {
    heading: 'Your license is active',
    paragraphs: [
      greeting(input.name),
      `Your ${license.typeName} license for ${site.siteName} has been activated. ${expiry}`,
      'Enter this license key in the software to activate it on your machine:',
    ],
    details,
    action: { label: 'See your licenses', url: `${site.siteUrl}/dashboard` },
    closing: [
      `Download the software: ${site.siteUrl}/downloads`,
      'Your dashboard always shows the key, your machines and a license file for offline machines.',
    ],
  };
  return { subject: `${site.siteName}: Your license is active`, text: renderText(site, body), html: renderHtml(site, body) };
}

/** Mails the owner the key; never throws (a failure is logged by sendSafely without the body), answers whether it went. */
export function sendLicenseGrantedMail(
  ctx: Pick<AppContext, 'config' | 'mailer' | 'log'>,
  user: Pick<User, 'name' | 'email'>,
  license: GrantedLicense,
): Promise<boolean> {
  return sendSafely(ctx.mailer, { to: user.email, ...licenseGrantedWithKeyEmail(ctx.config, { name: user.name, license }) }, ctx.log);
}

/** The changes an owner is told of (issue 24, item 5): suspension, its lifting, an extension, the machine limit, the entitlements. */
function noticeableChanges(changes: readonly LicenseChangeEvent[]): string[] {
  const lines: string[] = [];
  for (const change of changes) {
    if (change.action === 'suspended' || change.action === 'unsuspended' || change.action === 'extended') {
      lines.push(licenseEventText(change));
    } else if (change.action === 'updated') {
      const fields = (change.detail.changes ?? {}) as Record<string, { from: unknown; to: unknown }>;
      for (const field of ['max_machines', 'entitlements'] as const) {
        const fieldChange = fields[field];
        if (fieldChange) lines.push(changeText(field, fieldChange));
      }
    }
  }
  return lines;
}

export function licenseChangedEmail(site: MailSite, input: { name: string; typeName: string; key: string | null; lines: string[] }): MailContent {
  const body = {
    heading: 'Your license has changed',
    paragraphs: [
      greeting(input.name),
      `An administrator of ${site.siteName} changed your ${input.typeName} license. In the words of its history:`,
      // The history's own sentences (common/license-history.ts): the mail and the dashboard say the same.
      input.lines.map((line) => `• ${line}.`).join('\n'),
    ],
    action: { label: 'See your license', url: `${site.siteUrl}/dashboard` },
    closing: ['The software picks the change up at its next check-in.'],
  };
  return { subject: `${site.siteName}: Your license has changed`, text: renderText(site, body), html: renderHtml(site, body) };
}

/**
 * Mails the owner what an admin's save changed, when it changed something they should know of; null when
 * nothing was worth a mail, else whether it went (never throws, like every mail here). The key stays out:
 * the owner knows their license by its type, and the dashboard shows the key.
 */
export async function sendLicenseChangedMail(
  ctx: Pick<AppContext, 'config' | 'mailer' | 'log'>,
  user: Pick<User, 'name' | 'email'>,
  license: { typeName: string; key: string | null },
  changes: readonly LicenseChangeEvent[],
): Promise<boolean | null> {
  const lines = noticeableChanges(changes);
  if (lines.length === 0) return null;
  const mail = licenseChangedEmail(ctx.config, { name: user.name, typeName: license.typeName, key: license.key, lines });
  return sendSafely(ctx.mailer, { to: user.email, ...mail }, ctx.log);
}
