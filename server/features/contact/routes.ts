// The contact form (docs/product/accounts.md#contact-form, docs/product/api.md, docs/product/messages.md#error-catalogue; issue 3, item 6): POST /api/contact. The message is stored first
// (it is an item of the admin inbox, docs/product/admin.md#inbox), then mailed to every admin and NOTIFY_EMAIL with Reply-To
// set to the visitor; a failed mail loses nothing.
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireBotToken } from '../../auth/botcheck.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { insertContactMessage, saveContactDetails } from './queries.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { getContactDetails } from '../../db/queries/site-pages.ts';
import { validate } from '../../http/validate.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { clientIp, rateLimitAddress, UNKNOWN_IP } from '../../http/client-ip.ts';
import { fieldErrorsFromZod, validationFailed } from '../../http/errors.ts';
import { emailField, optionalText, requiredLine, requiredText } from '../../http/fields.ts';
import { refuseWhenThrottled, tooManyRequests } from '../../http/throttle.ts';
import { notifyAdmins } from '../../mail/notify-admins.ts';
import { contactAdminEmail } from '../../mail/templates.ts';
import { writeTransaction } from '../../db/client.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';

export const CONTACT_MESSAGES = { sent: 'Message sent.', detailsSaved: 'Contact details saved.' } as const;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
/** Five messages per IP per ten minutes: plenty for a person, little for a spammer past the bot check. */
/** Messages per address in this window: CONTACT_MESSAGES_PER_10_MINUTES, default 5. */
export const CONTACT_THROTTLE = { limit: 5, windowMs: 10 * 60 * 1000 } as const;

const contactSchema = z.object({
  name: requiredLine('name', 255),
  email: emailField,
  message: requiredText('message', CONTACT_MESSAGE_MAX_LENGTH),
  // Verified (and spent) by requireBotToken before this schema runs.
  g_token: z.string().max(20_000).nullish(),
});

export function contactRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({ ...CONTACT_THROTTLE, limit: ctx.config.contactMessagesPer10Minutes, db: ctx.db, name: 'contact', now: ctx.now });
  const ipOf = (c: Parameters<typeof clientIp>[0]) => clientIp(c, ctx.config);
  // The throttle counts an IPv6 client per /64 (issue 17 item 8); the stored message keeps the full address.
  const limitKeyOf = (c: Parameters<typeof clientIp>[0]) => rateLimitAddress(ipOf(c));

  // A failed bot check counts as a message sent (issue 17, item 1).
  const countedBotCheck = requireBotToken(ctx, { onFailure: (c) => throttle.hit(limitKeyOf(c)) });

  // The form shows errors under name and email and one general message below the message box (docs/product/messages.md#validation),
  // so the general message carries the message field's own error when it has one.
  const validContact = zValidator('json', contactSchema, (result, c) => {
    if (result.success) return;
    const errors = fieldErrorsFromZod(result.error as never);
    return validationFailed(c, errors, errors.message?.[0]);
  });

  return new Hono<AppEnv>().post('/', smallJsonBody(64 * 1024), refuseWhenThrottled(throttle, limitKeyOf), countedBotCheck, validContact, async (c) => {
    const { name, email, message } = c.req.valid('json');
    // Counts messages that would be stored, not a visitor's attempts to fill the form correctly.
    const decision = throttle.consume(limitKeyOf(c));
    if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds);
    const ip = ipOf(c);
    writeTransaction(ctx.db, () => {
      const stored = insertContactMessage(ctx.db, { name, email, message, ip: ip === UNKNOWN_IP ? null : ip, created_at: new Date(ctx.now()).toISOString() });
      // The visitor's address is theirs to give the company: the CRM hears of the message (docs/integrations.md#events).
      recordWebhookEvent(ctx, 'contact.received', { id: stored.id, name, email, message, created_at: stored.created_at }, ctx.now());
    });
    await notifyAdmins(ctx, contactAdminEmail(ctx.config, { name, email, message }));
    return c.json({ message: CONTACT_MESSAGES.sent }, 200);
  });
}

const phoneMessage = 'The phone field may contain only digits, spaces and + ( ) - . /';
const detailsSchema = z.object({
  address: optionalText('address', 500),
  email: optionalText('email', 255).pipe(z.union([z.literal(''), z.email('The email field must be a valid email address.')])),
  phone: optionalText('phone', 50).pipe(z.string().regex(/^[0-9 +()\-./]*$/, phoneMessage)),
});

/**
 * The contact details on /contact (issue 28, section 1): address, e-mail and phone, each hidden on the page while empty.
 * Public read (the page shows them anyway); an admin saves them in place on the page, and the save republishes, since the
 * static page carries them (common/snapshot-schema.ts `contact`).
 */
export function contactDetailsRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', (c) => c.json({ details: getContactDetails(ctx.db) }))
    .put('/', requireAdmin, smallJsonBody(), validate('json', detailsSchema), (c) => {
      const details = { ...c.req.valid('json'), updated_at: new Date(ctx.now()).toISOString() };
      saveContactDetails(ctx.db, details);
      ctx.publisher.schedule('contact details updated');
      return c.json({ message: CONTACT_MESSAGES.detailsSaved, details });
    });
}

/** The contact feature as server/app.ts mounts it: the contact form and the contact details, at full paths. */
export function contactFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/contact/details', contactDetailsRoutes(ctx)).route('/api/contact', contactRoutes(ctx));
}
