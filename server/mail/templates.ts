// The messages the accounts flows and the admin console send. Each builder returns subject, text and
// HTML (the caller adds the recipient: `sendSafely(mailer, { to, ...verificationEmail(config, …) }, log)`,
// or `notifyAdmins` of server/features/inbox/notify.ts for the admin notices). Subjects start with the site name so they sort together.
import type { MailContent } from './transport.ts';
import { greeting, oneLineName } from './greeting.ts';
import { renderHtml, renderText, type MailBody, type MailSite } from './layout.ts';

/** Signed links and reset tokens live this long (issue 3, items 4 and 5); the mails say so. */
export const LINK_LIFETIME_MINUTES = 60;

function compose(site: MailSite, subject: string, body: MailBody, replyTo?: string): MailContent {
  return { subject: `${site.siteName}: ${subject}`, text: renderText(site, body), html: renderHtml(site, body), ...(replyTo ? { replyTo } : {}) };
}

/** A user-typed value inside a subject line: one line, and short enough to read in an inbox list. */
function inSubject(value: string): string {
  const oneLine = oneLineName(value);
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine;
}

/**
 * No name: the address is not proven yet, so whoever registered may not own it, and the name is theirs
 * (issue 17, item 3). The greeting helper neutralises names in every other mail.
 */
export function verificationEmail(site: MailSite, input: { link: string }): MailContent {
  return compose(site, 'Verify your e-mail address', {
    heading: 'Verify your e-mail address',
    paragraphs: ['Hello,', `Thank you for registering with ${site.siteName}. Please confirm that this e-mail address is yours.`],
    action: { label: 'Verify e-mail address', url: input.link },
    closing: [
      `The link expires in ${LINK_LIFETIME_MINUTES} minutes. You can ask for a new one from your dashboard.`,
      'If you did not create an account, you can ignore this message.',
    ],
  });
}

export function passwordResetEmail(site: MailSite, input: { name: string; link: string }): MailContent {
  return compose(site, 'Reset your password', {
    heading: 'Reset your password',
    paragraphs: [greeting(input.name), `We received a request to reset the password of your ${site.siteName} account.`],
    action: { label: 'Choose a new password', url: input.link },
    closing: [
      `The link works once and expires in ${LINK_LIFETIME_MINUTES} minutes.`,
      'If you did not ask for a new password, you can ignore this message: your password stays as it is.',
    ],
  });
}

export function licenseRequestedUserEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'Your license request was received', {
    heading: 'License request received',
    paragraphs: [
      greeting(input.name),
      'We have received your request for a free trial license. An administrator will review it shortly.',
      'You will receive another e-mail as soon as your license has been activated.',
    ],
    action: { label: 'Open your dashboard', url: `${site.siteUrl}/dashboard` },
  });
}

export interface LicenseRequester {
  id: number;
  name: string;
  email: string;
  surname?: string | null;
  companyName?: string | null;
}

export function licenseRequestedAdminEmail(site: MailSite, input: { user: LicenseRequester }): MailContent {
  const { user } = input;
  // Names one line each (oneLineName): a stored name with a line break must not forge a detail row.
  const fullName = oneLineName([user.name, user.surname].filter(Boolean).join(' '));
  const details: Array<[string, string]> = [
    ['User', fullName],
    ['E-mail', user.email],
  ];
  if (user.companyName) details.push(['Company', oneLineName(user.companyName)]);
  details.push(['User ID', String(user.id)]);
  return compose(
    site,
    `License request from ${inSubject(fullName)}`,
    {
      heading: 'New license request',
      paragraphs: ['A user has requested a free trial license. Grant or decline it in the inbox of the admin screen.'],
      details,
      action: { label: 'Open the inbox', url: `${site.siteUrl}/admin#inbox` },
    },
    // A reply to the notice reaches the user who asked.
    user.email,
  );
}

export function contactAdminEmail(site: MailSite, input: { name: string; email: string; message: string }): MailContent {
  return compose(
    site,
    `Contact message from ${inSubject(input.name)}`,
    {
      heading: 'New message from the contact form',
      paragraphs: ['Reply to this e-mail to answer the sender directly.'],
      details: [
        // One line (oneLineName): "Eve\r\nBcc: …" must not read as a row of its own (issue 29, item 5).
        ['Name', oneLineName(input.name)],
        ['E-mail', input.email],
        ['Message', input.message],
      ],
    },
    // The admin's "reply" then goes to the visitor, not to our no-reply sender.
    input.email,
  );
}

/**
 * Sent once per lockout when an account's logins are refused after too many failures from any address
 * (ACCOUNT_LOGIN_THROTTLE, issue 17 item 8). It carries no password and no link with a token: only the
 * way to the reset form, which the owner could find anyway.
 */
export function loginLockoutEmail(site: MailSite, input: { name: string; minutes: number }): MailContent {
  return compose(site, 'Many failed sign-in attempts on your account', {
    heading: 'Many failed sign-in attempts',
    paragraphs: [
      greeting(input.name),
      `Someone tried to sign in to your ${site.siteName} account many times with a wrong password. Sign-ins to your account are paused for up to ${input.minutes} minutes.`,
      'If it was not you, reset your password.',
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If it was you, you can ignore this message and try again later.'],
  });
}

/**
 * After a password change from the dashboard (docs/product/accounts.md#change-password): no secret, only the
 * way to the reset form, which works even when whoever changed it has signed the owner out.
 */
export function passwordChangedEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'Your password was changed', {
    heading: 'Your password was changed',
    paragraphs: [
      greeting(input.name),
      `The password of your ${site.siteName} account was just changed, and every other session of the account was signed out.`,
      "If this wasn't you, reset your password now.",
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If it was you, you can ignore this message.'],
  });
}

/** The link that makes a new address the account's (docs/product/accounts.md#change-e-mail), sent to the new address. */
export function emailChangeVerificationEmail(site: MailSite, input: { name: string; link: string }): MailContent {
  return compose(site, 'Confirm your new e-mail address', {
    heading: 'Confirm your new e-mail address',
    paragraphs: [greeting(input.name), `You asked to use this address for your ${site.siteName} account. Nothing changes until you confirm it.`],
    action: { label: 'Use this e-mail address', url: input.link },
    closing: [`The link expires in ${LINK_LIFETIME_MINUTES} minutes.`, 'If you did not ask for this, you can ignore this message.'],
  });
}

/** Sent to the current address when a change to another one is asked for: the owner can still stop it. */
export function emailChangeNoticeEmail(site: MailSite, input: { name: string; newEmail: string }): MailContent {
  return compose(site, 'A change of your e-mail address was requested', {
    heading: 'E-mail change requested',
    paragraphs: [
      greeting(input.name),
      `Someone signed in to your ${site.siteName} account asked to change its e-mail address to ${input.newEmail}. The change takes effect only when the link sent to that address is followed.`,
      "If this wasn't you, reset your password now: that ends every session of the account.",
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If it was you, you can ignore this message.'],
  });
}

/**
 * Security notices for two-factor sign-in (issue 13, item 6): each says what changed, when nothing was asked
 * of the owner, and what to do if it was not them. No codes and no links with tokens.
 */
export function twoFactorEnabledEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'Two-factor sign-in turned on', {
    heading: 'Two-factor sign-in is on',
    paragraphs: [
      greeting(input.name),
      `Two-factor sign-in was turned on for your ${site.siteName} account. From now on signing in asks for a code from your authenticator app after your password.`,
      'Keep your recovery codes somewhere safe: each one signs you in once if you lose your phone.',
    ],
    closing: ['If this was not you, reset your password at once and contact us.'],
  });
}

export function twoFactorDisabledEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'Two-factor sign-in turned off', {
    heading: 'Two-factor sign-in is off',
    paragraphs: [greeting(input.name), `Two-factor sign-in was turned off for your ${site.siteName} account. Signing in now needs only your password.`],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If this was not you, reset your password at once and turn two-factor sign-in on again from your dashboard.'],
  });
}

export function recoveryCodeUsedEmail(site: MailSite, input: { name: string; remaining: number }): MailContent {
  const left = input.remaining === 1 ? '1 recovery code is left' : `${input.remaining} recovery codes are left`;
  return compose(site, 'A recovery code was used to sign in', {
    heading: 'A recovery code was used',
    paragraphs: [
      greeting(input.name),
      `Someone signed in to your ${site.siteName} account with one of your recovery codes instead of a code from your authenticator app. ${left}.`,
      'You can make a new set of recovery codes in your dashboard; the old ones then stop working.',
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If this was not you, reset your password at once and make new recovery codes.'],
  });
}

/**
 * Security notices for passkeys (docs/product/accounts.md#passkeys): added, removed, and refused as a possible
 * copy. The passkey's name is the user's own text and stays out (a name can look like a link); none carries
 * a link with a token.
 */
export function passkeyAddedEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'A passkey was added', {
    heading: 'A passkey was added',
    paragraphs: [
      greeting(input.name),
      `A passkey was added to your ${site.siteName} account. It can now sign you in without your password. You can see and remove your passkeys in your dashboard.`,
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If this was not you, reset your password at once, then remove the passkey in your dashboard.'],
  });
}

export function passkeyRemovedEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'A passkey was removed', {
    heading: 'A passkey was removed',
    paragraphs: [greeting(input.name), `A passkey was removed from your ${site.siteName} account. It can no longer sign you in.`],
    closing: ['If this was not you, reset your password at once and contact us.'],
  });
}

export function passkeyCloneSuspectedEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'A passkey was refused: it may have been copied', {
    heading: 'A passkey was refused',
    paragraphs: [
      greeting(input.name),
      `Someone tried to sign in to your ${site.siteName} account with one of your passkeys, but the passkey's use counter went back. That can mean the passkey was copied, so it is refused from now on.`,
      'Sign in with your password, remove that passkey in your dashboard and add a new one.',
    ],
    action: { label: 'Reset your password', url: `${site.siteUrl}/reset-password` },
    closing: ['If you did not try to sign in just now, reset your password as well.'],
  });
}

/** Where an inbox mail says the conversation started: the visitor's own words, quoted below the answer. */
export interface InboxOriginal {
  createdAt: string;
  text: string;
}

function quoted(original: InboxOriginal | null): string[] {
  if (!original) return [];
  return [`On ${original.createdAt.slice(0, 10)} you wrote:\n${original.text.replace(/^/gm, '> ')}`];
}

/**
 * An admin's reply from the inbox (docs/product/admin.md#inbox): the admin's subject and text exactly as typed, the visitor's
 * message quoted. Reply-To is the admin who answered, so the conversation can go on by mail. No greeting of ours and no
 * site-name prefix (issue 28, item 4): the admin writes their own "Hi Bob," and the subject ("Re: " and the visitor's first
 * words, server/features/inbox/present.ts) reads as an answer in the visitor's mailbox, not as a notice of the site.
 */
export function inboxReplyEmail(site: MailSite, input: { subject: string; message: string; original: InboxOriginal | null; replyTo: string }): MailContent {
  const body: MailBody = { heading: input.subject, paragraphs: [input.message], closing: quoted(input.original) };
  return { ...compose(site, input.subject, body, input.replyTo), subject: inSubject(input.subject) };
}

/**
 * A user's answer from the dashboard's Support card (issue 28, section 1), to every admin like a contact message. Reply-To
 * is the user; the item waits in the inbox, unread again.
 */
export function supportAnswerAdminEmail(site: MailSite, input: { name: string; email: string; about: string; message: string }): MailContent {
  return compose(
    site,
    `Answer from ${inSubject(input.name)}`,
    {
      heading: 'A user answered in the inbox',
      paragraphs: [`${input.name} answered about: ${input.about}`, 'Their answer is in the inbox item, which is open and unread again.'],
      details: [
        ['Name', input.name],
        ['E-mail', input.email],
        ['Answer', input.message],
      ],
      action: { label: 'Open the inbox', url: `${site.siteUrl}/admin#inbox` },
    },
    input.email,
  );
}

/** After an account was deleted (issue 28, item 5): what went, and that nothing more will come. No link: there is no account. */
export function accountDeletedEmail(site: MailSite, input: { name: string }): MailContent {
  return compose(site, 'Your account was deleted', {
    heading: 'Your account was deleted',
    paragraphs: [
      greeting(input.name),
      `Your ${site.siteName} account has been deleted, with your details, licenses, sessions and the messages you sent us. This is the last e-mail you receive from us about it.`,
    ],
    closing: ['If you did not delete it, please contact us through the Contact Us page of the site.'],
  });
}

/** A license request declined from the inbox, with the admin's reason; the user may ask again from the dashboard. */
export function licenseRequestDeclinedEmail(site: MailSite, input: { name: string; reason: string; replyTo: string }): MailContent {
  return compose(
    site,
    'Your license request was declined',
    {
      heading: 'License request declined',
      paragraphs: [greeting(input.name), 'Your request for a free trial license was declined, for this reason:', input.reason],
      action: { label: 'Open your dashboard', url: `${site.siteUrl}/dashboard` },
      closing: ['If you have questions, reply to this e-mail.'],
    },
    input.replyTo,
  );
}

/**
 * To the admins when the delivery job disabled a webhook endpoint after three days of failed deliveries
 * (docs/integrations.md#delivery): which one, the last error, and where to turn it on again.
 */
export function webhookDisabledEmail(site: MailSite, input: { url: string; failingSince: string; lastError: string }): MailContent {
  return compose(site, 'A webhook endpoint was disabled', {
    heading: 'Webhook endpoint disabled',
    paragraphs: [
      `Deliveries to ${input.url} have failed since ${input.failingSince.slice(0, 16).replace('T', ' ')} UTC, so the endpoint was disabled. Its events are kept.`,
      `The last error: ${inSubject(input.lastError)}`,
      'Fix the receiver, then turn the endpoint on again under Integrations; its waiting deliveries are then sent.',
    ],
    action: { label: 'Open Integrations', url: `${site.siteUrl}/admin#integrations` },
  });
}

/** An account made for someone through the integrations' API lives this long without a password: a week. */
export const WELCOME_LINK_LIFETIME_MINUTES = 7 * 24 * 60;

/**
 * To a customer whose account the company's shop or CRM made (POST /api/v1/users, docs/integrations.md): the
 * address is taken as verified (the shop proved it), and the link sets the first password.
 */
export function welcomeSetPasswordEmail(site: MailSite, input: { name: string; link: string }): MailContent {
  return compose(site, 'Your account is ready', {
    heading: 'Your account is ready',
    paragraphs: [greeting(input.name), `An account was made for you on ${site.siteName}. Choose your password to sign in; the link works for 7 days.`],
    action: { label: 'Choose your password', url: input.link },
    closing: ['If you did not expect this, you can ignore this e-mail: nobody can sign in until a password is chosen.'],
  });
}
