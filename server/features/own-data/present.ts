// The document of GET /api/user/export: everything the product keeps about the signed-in user, as one
// JSON file (docs/product/accounts.md#your-data describes the format; docs/decisions/0025-own-data.md why).
// Never in it: the password hash or any other secret, session ids or tokens, another person's data.
import { describeUserAgent } from '../sessions/index.ts';
import type { AppContext } from '../../context.ts';
import { getLicensesOfUser } from '../licensing/index.ts';
import { listLicenseRequestsOfUser } from '../licensing/index.ts';
import type { User } from '../../db/schema.ts';
import { listContactMessagesFrom } from '../contact/index.ts';
import { listPasskeysOfUser, presentPasskeysForExport } from '../passkeys/index.ts';
import { presentLicenseEvents, presentLicenses } from '../licensing/index.ts';
import { listOwnDownloads, listOwnSessions, listReceivedMailings } from './queries.ts';

/** Names the document's shape; `version` goes up when a part changes meaning or a field goes away. */
export const EXPORT_FORMAT = 'account-data-export';
export const EXPORT_VERSION = 1;

/**
 * Every column of the users table, sorted into what the owner gets back and what is a secret. A Record
 * over every key, so a column added later (two-factor state, …) stops the type check here until someone
 * decides which it is.
 */
const USER_FIELD_EXPORT = {
  id: 'export',
  name: 'export',
  surname: 'export',
  companyName: 'export',
  email: 'export',
  email_verified_at: 'export',
  password_hash: 'secret',
  address: 'export',
  postcode: 'export',
  county: 'export',
  country: 'export',
  phone: 'export',
  vat: 'export',
  license: 'export',
  license_request: 'export',
  license_granted: 'export',
  is_banned: 'export',
  role: 'export',
  unsubscribed_at: 'export',
  two_factor_enabled_at: 'export',
  // Internal bookkeeping of e-mail-change links, not the owner's data.
  email_change_nonce: 'secret',
  created_at: 'export',
  updated_at: 'export',
} as const satisfies Record<keyof User, 'export' | 'secret'>;

export type ExportedUserField = { [K in keyof typeof USER_FIELD_EXPORT]: (typeof USER_FIELD_EXPORT)[K] extends 'export' ? K : never }[keyof User];

export const EXPORTED_USER_FIELDS = (Object.keys(USER_FIELD_EXPORT) as (keyof User)[]).filter(
  (field): field is ExportedUserField => USER_FIELD_EXPORT[field] === 'export',
);

function profileOf(user: User): Pick<User, ExportedUserField> {
  return Object.fromEntries(EXPORTED_USER_FIELDS.map((field) => [field, user[field]])) as Pick<User, ExportedUserField>;
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** The export of `user`; `currentSessionId` marks the session that asked (`current: true`) without naming it. */
export function buildAccountExport(ctx: Pick<AppContext, 'db' | 'now'>, user: User, currentSessionId: string | null) {
  const now = ctx.now();
  const viewer = { id: user.id, role: user.role };
  const licenses = presentLicenses(ctx.db, getLicensesOfUser(ctx.db, user.id), { viewer, now }).map((license) => ({
    ...license,
    events: presentLicenseEvents(ctx.db, license, viewer),
  }));
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: iso(now),
    profile: profileOf(user),
    // Whether a request waits now, and every request with its answer (the admin inbox keeps them).
    license_request: { pending: user.license_request === 1, requests: listLicenseRequestsOfUser(ctx.db, user.id) },
    licenses,
    sessions: listOwnSessions(ctx.db, user.id).map((session) => ({
      current: session.id === currentSessionId,
      persistent: session.persistent === 1,
      ...describeUserAgent(session.user_agent),
      ip: session.ip,
      created_at: session.created_at,
      last_active_at: session.last_active_at ? iso(session.last_active_at) : null,
      expires_at: iso(session.expires_at),
      ends_at: iso(session.absolute_expires_at),
    })),
    // By name and dates only: never a credential id or public key (docs/product/accounts.md#passkeys).
    passkeys: presentPasskeysForExport(listPasskeysOfUser(ctx.db, user.id)),
    downloads: listOwnDownloads(ctx.db, user.id),
    mailings_received: listReceivedMailings(ctx.db, user.id),
    // Only for a verified address: whoever registers someone else's address must not read their messages.
    contact_messages: user.email_verified_at
      ? listContactMessagesFrom(ctx.db, user.email).map(({ name, email, message, ip, created_at }) => ({ name, email, message, ip, sent_at: created_at }))
      : [],
  };
}

export type AccountExport = ReturnType<typeof buildAccountExport>;

/** The download's file name, with the day of the export: `account-data-2026-11-25.json`. */
export function exportFileName(now: number): string {
  return `account-data-${iso(now).slice(0, 10)}.json`;
}
