// The message builders: site-name subjects, a text and an HTML part each, links in both, and user text
// escaped in HTML so a visitor cannot put markup into an admin's mail client.
import { describe, expect, it } from 'vitest';
import {
  contactAdminEmail,
  licenseRequestedAdminEmail,
  licenseRequestedUserEmail,
  loginLockoutEmail,
  passwordResetEmail,
  verificationEmail,
} from '../../../server/mail/templates.ts';
import { GREETING_NAME_MAX, greeting, greetingName } from '../../../server/mail/greeting.ts';
import { licenseReminderEmail } from '../../../server/features/license-reminders/mails.ts';
import type { MailContent } from '../../../server/mail/transport.ts';
import { licenseGrantedWithKeyEmail } from '../../../server/features/licensing/mails.ts';

const site = { siteName: 'Dimensional Control', siteUrl: 'https://www.example.com' };
const link = 'https://www.example.com/reset-pasword/form?token=abc&email=ann%40example.com';
const hostile = '<script>alert("x")</script> & <b>bold</b>';

const all: Array<[string, MailContent]> = [
  ['verification', verificationEmail(site, { link })],
  ['password reset', passwordResetEmail(site, { name: 'Ann', link })],
  ['license requested (user)', licenseRequestedUserEmail(site, { name: 'Ann' })],
  [
    'license requested (admin)',
    licenseRequestedAdminEmail(site, { user: { id: 7, name: 'Ann', surname: 'Lee', email: 'ann@example.com', companyName: 'ACME' } }),
  ],
  ['contact', contactAdminEmail(site, { name: 'Ann', email: 'ann@example.com', message: 'Hello' })],
  [
    'license granted',
    licenseGrantedWithKeyEmail(site, {
      name: 'Ann',
      license: { key: 'DCTL-00000-11111-22222-33333-44444-55555', typeName: 'trial', expireDate: '2026-02-01T00:00:00.000Z', maxMachines: 1 },
    }),
  ],
];

describe('message builders', () => {
  it.each(all)('%s: subject starts with the site name; text and HTML parts are both filled', (_name, mail) => {
    expect(mail.subject.startsWith('Dimensional Control: ')).toBe(true);
    expect(mail.text.trim().length).toBeGreaterThan(20);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.text).toContain(site.siteUrl);
  });

  it('verification and reset mails carry the link in both parts (attribute-escaped in HTML) and say how long it lasts', () => {
    for (const mail of [verificationEmail(site, { link }), passwordResetEmail(site, { name: 'Ann', link })]) {
      expect(mail.text).toContain(`\n${link}\n`);
      expect(mail.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      expect(mail.text).toContain('60 minutes');
    }
  });

  it('contact mail escapes everything the visitor typed in HTML, keeps it as typed in text, and replies to the visitor', () => {
    const mail = contactAdminEmail(site, { name: hostile, email: 'eve@example.org', message: `${hostile}\nsecond line` });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>bold</b>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;<br>second line');
    expect(mail.text).toContain(`Message: ${hostile}\nsecond line`);
    expect(mail.replyTo).toBe('eve@example.org');
  });

  it('license request mail to the admin escapes the user fields', () => {
    const mail = licenseRequestedAdminEmail(site, { user: { id: 3, name: hostile, email: 'x@example.com', companyName: '<i>Co</i>' } });
    expect(mail.html).not.toMatch(/<script>|<i>Co<\/i>/);
    expect(mail.html).toContain('&lt;i&gt;Co&lt;/i&gt;');
  });

  it('keeps user-typed subjects on one short line', () => {
    const mail = contactAdminEmail(site, { name: `Eve\r\nBcc: victim@example.com ${'x'.repeat(100)}`, email: 'eve@example.org', message: 'Hi' });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.length).toBeLessThanOrEqual('Dimensional Control: Contact message from '.length + 60);
  });

  it('license granted mail carries the key in the body (never the subject) and states the expiry, or that there is none', () => {
    const key = 'DCTL-00000-11111-22222-33333-44444-55555';
    const trial = licenseGrantedWithKeyEmail(site, {
      name: 'Ann',
      license: { key, typeName: 'trial', expireDate: '2026-02-01T00:00:00.000Z', maxMachines: 1 },
    });
    expect(trial.text).toContain('valid until 2026-02-01 00:00 UTC');
    expect(trial.text).toContain(`License key: ${key}`);
    expect(trial.html).toContain(key);
    expect(trial.subject).not.toContain(key);
    const perpetual = licenseGrantedWithKeyEmail(site, { name: hostile, license: { key, typeName: 'perpetual', expireDate: null, maxMachines: 3 } });
    expect(perpetual.text).toContain('does not expire');
    expect(perpetual.text).toContain('Machines: up to 3');
    expect(perpetual.html).not.toContain('<script>');
  });
});

describe('names in greetings (issue 17, item 3)', () => {
  const license = { key: 'DCTL-00000-11111-22222-33333-44444-55555', typeName: 'trial', expireDate: '2026-02-01T00:00:00.000Z', maxMachines: 1 };
  const greetedBy = (name: string): Array<[string, MailContent]> => [
    ['password reset', passwordResetEmail(site, { name, link })],
    ['license requested', licenseRequestedUserEmail(site, { name })],
    ['lockout notice', loginLockoutEmail(site, { name, minutes: 15 })],
    ['license granted', licenseGrantedWithKeyEmail(site, { name, license })],
    ['trial reminder', licenseReminderEmail(site, { kind: 'expired', name, key: license.key, expireDate: license.expireDate, now: Date.UTC(2026, 1, 2) })],
  ];

  it('the verification mail greets nobody by name: its address is not proven yet', () => {
    const mail = verificationEmail(site, { link });
    expect(mail.text).toContain('\nHello,\n');
  });

  it.each(greetedBy('Visit http://evil.example, www.spam.example, win.example or mail me@evil.example Ann'))(
    '%s: a name advertising links greets without them, in text and HTML',
    (_name, mail) => {
      expect(mail.text).toContain('Hello Visit or mail Ann,');
      for (const part of [mail.text, mail.html]) expect(part).not.toMatch(/evil|spam|win\.example/);
    },
  );

  it.each(greetedBy(`Ann ${'Longname '.repeat(30)}`))('%s: a long name is cut to 40 characters', (_name, mail) => {
    const line = mail.text.split('\n').find((text) => text.startsWith('Hello'));
    expect(line).toBeDefined();
    expect(line!.length).toBeLessThanOrEqual('Hello ,'.length + GREETING_NAME_MAX);
  });

  it('keeps ordinary names, drops disguised links, and falls back to "Hello,"', () => {
    expect(greeting('Jürgen Müller')).toBe('Hello Jürgen Müller,');
    expect(greeting("J. R. O'Neil-Smith")).toBe("Hello J. R. O'Neil-Smith,");
    // Fullwidth and ideographic dots, a zero-width space inside "evil", a bidi override, line breaks.
    expect(greetingName('Ann evil\uFF0Eexample evil\u3002example e\u200Bvil.example\u202E\r\nBob')).toBe('Ann Bob');
    expect(greeting('   ')).toBe('Hello,');
    expect(greeting('https://evil.example')).toBe('Hello,');
    expect(greetingName('x'.repeat(255))).toHaveLength(GREETING_NAME_MAX);
  });
});
