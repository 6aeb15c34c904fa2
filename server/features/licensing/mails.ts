// The mail a user gets when a license is granted (issue 12, item 8: "Granting a license mails the key"):
// created active, switched to active, or granted at once by Request License. The key is in the body only:
// subjects and links are written to the logs (server/mail/transport.ts), keys never are (docs/licensing.md).
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { greeting } from '../../mail/greeting.ts';
import { renderHtml, renderText, type MailSite } from '../../mail/layout.ts';
import { sendSafely, type MailContent } from '../../mail/transport.ts';

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
