// One table per entity of docs/product/data-model.md. Column property names follow the field names the API
// sends (docs/product/data-model.md: snake_case, with companyName as the one camelCase field), so rows serialise
// without a mapping layer. Times are ISO-8601 strings in UTC: sortable, and what the clients read.
// The tables the later parts refer to; the whole schema is server/db/schema.ts, which every other file imports.
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

const timestamps = {
  created_at: text('created_at').notNull().default(nowIso),
  updated_at: text('updated_at').notNull().default(nowIso),
};

export const NAMESPACES = ['news', 'documentation', 'tutorials'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    surname: text('surname'),
    companyName: text('company_name'),
    // COLLATE NOCASE makes the unique index compare e-mails case-insensitively (SQLite folds ASCII).
    email: text('email').notNull(),
    email_verified_at: text('email_verified_at'),
    password_hash: text('password_hash').notNull(),
    address: text('address'),
    postcode: text('postcode'),
    county: text('county'),
    country: text('country'),
    phone: text('phone'),
    vat: text('vat'),
    license: text('license'),
    license_request: integer('license_request').notNull().default(0),
    license_granted: integer('license_granted').notNull().default(0),
    is_banned: integer('is_banned').notNull().default(0),
    role: text('role').notNull().default('user'),
    unsubscribed_at: text('unsubscribed_at'),
    // When two-factor sign-in was turned on; null while it is off (docs/product/accounts.md#two-factor-sign-in).
    // On the user row so the session's user says it without another query; the secret is elsewhere.
    two_factor_enabled_at: text('two_factor_enabled_at'),
    // Bumped by every change of address or password (server/db/queries/users.ts): an e-mail-change link
    // carries the value it was made at, so it is good once and dies with any such change, even one that
    // later puts the same address back (issue 29, item 1; docs/product/accounts.md#change-e-mail).
    email_change_nonce: integer('email_change_nonce').notNull().default(0),
    ...timestamps,
  },
  (table) => [uniqueIndex('users_email_unique').on(sql`${table.email} COLLATE NOCASE`)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    // SHA-256 (hex) of the token the cookie holds; the token itself is never stored.
    id: text('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expires_at: integer('expires_at').notNull(),
    // The absolute end (epoch ms): sliding renewal never moves expires_at past it (server/auth/sessions.ts).
    absolute_expires_at: integer('absolute_expires_at').notNull().default(0),
    persistent: integer('persistent').notNull().default(0),
    created_at: text('created_at').notNull().default(nowIso),
    // The id the session list shows and takes back (docs/decisions/0024-session-control.md): random, unrelated
    // to the token, so no answer ever carries anything derived from a sign-in secret. '' only on rows made
    // before the column existed; they get one on their next request (server/auth/sessions.ts).
    public_id: text('public_id').notNull().default(''),
    // Where and with what the session was started, for "Where you're signed in" (docs/product/accounts.md#sessions).
    ip: text('ip'),
    // Truncated (SESSION_USER_AGENT_MAX); parsed into browser and system only when listed.
    user_agent: text('user_agent'),
    // Epoch ms, refreshed at most once a minute (LAST_ACTIVE_RESOLUTION_MS): no write per request.
    last_active_at: integer('last_active_at').notNull().default(0),
    // How the session was signed in to ('password' or 'passkey'): a passkey sign-in of the last 5 minutes
    // is proof enough to remove a passkey (docs/product/accounts.md#passkeys).
    signed_in_with: text('signed_in_with').notNull().default('password'),
  },
  (table) => [index('sessions_user_idx').on(table.user_id)],
);

/**
 * A user's authenticator secret (docs/product/accounts.md#two-factor-sign-in), AES-256-GCM encrypted with a key
 * outside the database (server/features/two-factor/key.ts). `pending_secret` is the one being set up, until a
 * code confirms it; `last_used_step` is the TOTP time step last accepted, so no code works twice.
 */
export const twoFactorCredentials = sqliteTable('two_factor_credentials', {
  user_id: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret'),
  pending_secret: text('pending_secret'),
  last_used_step: integer('last_used_step'),
  ...timestamps,
});

/** One-time recovery codes: only the SHA-256 of each (they carry 80 random bits), spent by setting used_at. */
export const twoFactorRecoveryCodes = sqliteTable(
  'two_factor_recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: text('used_at'),
    created_at: text('created_at').notNull().default(nowIso),
  },
  (table) => [uniqueIndex('two_factor_recovery_codes_hash_unique').on(table.user_id, table.code_hash)],
);

/**
 * The password step of a login with two-factor on: never a session, only this row, bound to one browser by
 * a cookie whose token is stored as its SHA-256 like session tokens (server/features/two-factor/routes.ts).
 */
export const twoFactorPendingLogins = sqliteTable(
  'two_factor_pending_logins',
  {
    id: text('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** remember_me of the password step, carried to the session the second step creates. */
    persistent: integer('persistent').notNull().default(0),
    /** Epoch milliseconds. */
    expires_at: integer('expires_at').notNull(),
  },
  (table) => [index('two_factor_pending_logins_user_idx').on(table.user_id)],
);

/**
 * A user's passkeys (docs/product/accounts.md#passkeys, docs/decisions/0043-passkeys.md): the WebAuthn credential's
 * id and public key (base64url; a public key is no secret, but neither leaves the server), the authenticator's
 * signature counter, and what the list shows. `suspected_clone_at`: a counter went back, so the passkey is
 * refused from then on. Gone with the user (ON DELETE CASCADE).
 */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credential_id: text('credential_id').notNull(),
    public_key: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    /** JSON array of the transports the browser named ("internal", "hybrid", …), handed back as hints. */
    transports: text('transports').notNull().default('[]'),
    /** 'singleDevice' or 'multiDevice' (a synced passkey). */
    device_type: text('device_type').notNull(),
    backed_up: integer('backed_up').notNull().default(0),
    name: text('name').notNull(),
    created_at: text('created_at').notNull().default(nowIso),
    last_used_at: text('last_used_at'),
    suspected_clone_at: text('suspected_clone_at'),
  },
  (table) => [uniqueIndex('passkeys_credential_unique').on(table.credential_id), index('passkeys_user_idx').on(table.user_id)],
);

/**
 * WebAuthn challenges waiting for their answer: each bound to one browser by an HttpOnly cookie whose token is
 * stored as its SHA-256 (like the pending two-factor login), used once, 5 minutes. `purpose` says which
 * ceremony it is for; `bound_to` is the session (adding a passkey) or the pending login (second factor).
 */
export const passkeyChallenges = sqliteTable(
  'passkey_challenges',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose').notNull(),
    challenge: text('challenge').notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    bound_to: text('bound_to'),
    /** Epoch milliseconds. */
    expires_at: integer('expires_at').notNull(),
  },
  (table) => [index('passkey_challenges_expires_idx').on(table.expires_at)],
);

export const passwordResetTokens = sqliteTable('password_reset_tokens', {
  // One live token per user: a new request replaces the old row, which voids the old link.
  user_id: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  token_hash: text('token_hash').notNull(),
  expires_at: integer('expires_at').notNull(),
  created_at: text('created_at').notNull().default(nowIso),
});

/**
 * A license type is an edition the company sells (issue 24; docs/licensing.md#license-types): what a grant
 * of it gives by default. `trial` and `perpetual` keep their ids; an admin adds the others.
 */
export const licenseTypes = sqliteTable('license_types', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  /** JSON array of entitlement codes (`^[A-Z][A-Z0-9_]{1,31}$`) every license of the type has. */
  entitlements: text('entitlements').notNull().default('[]'),
  /** A new license's machine limit (for a floating type: its seats). */
  max_machines: integer('max_machines').notNull().default(1),
  /** A grant's default expiry in days; 0: never expires. */
  duration_days: integer('duration_days').notNull().default(0),
  /** Days of updates after the grant; 0: no limit. */
  maintenance_days: integer('maintenance_days').notNull().default(0),
  /** 1: an activation is a lease on one of the seats, renewed by heartbeats. */
  floating: integer('floating').notNull().default(0),
  /** A floating lease's length after the last activation or heartbeat (1–1440). */
  lease_minutes: integer('lease_minutes').notNull().default(15),
  ...timestamps,
});

export const licenses = sqliteTable(
  'licenses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    license_type_id: integer('license_type_id')
      .notNull()
      .references(() => licenseTypes.id, { onDelete: 'restrict' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    active: integer('active').notNull().default(0),
    // Days from activation; 0 means no expiry for perpetual licenses.
    expire: integer('expire').notNull().default(0),
    activated_at: text('activated_at'),
    expire_date: text('expire_date'),
    /**
     * What the owner types into the software (docs/licensing.md): `DCTL-` and six groups of five
     * Crockford base-32 characters, 150 random bits. Null only between the migration that added the column
     * and the start-up backfill that gives every older license one (server/auth/license-keys.ts).
     */
    key: text('key'),
    /** Machines that may be activated at once. */
    max_machines: integer('max_machines').notNull().default(1),
    /** 1: the software is told SUSPENDED whatever the dates say. */
    suspended: integer('suspended').notNull().default(0),
    /** JSON array of entitlement codes this license has beyond its type's (issue 24, item 2). */
    extra_entitlements: text('extra_entitlements').notNull().default('[]'),
    /** Updates released until this time are included; null: no limit. Set at the grant from the type's maintenance_days. */
    maintenance_until: text('maintenance_until'),
    ...timestamps,
  },
  (table) => [index('licenses_user_idx').on(table.user_id), uniqueIndex('licenses_key_idx').on(table.key)],
);

/** A machine a license is activated on (POST /api/licensing/v1/activate); one row per fingerprint. */
export const licenseMachines = sqliteTable(
  'license_machines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    name: text('name'),
    platform: text('platform'),
    activated_at: text('activated_at').notNull(),
    /** The last activation or check-in (a repeated activate). */
    last_check_in_at: text('last_check_in_at').notNull(),
    /** The lease of the last machine-bound file issued: the file's `exp` is no later. */
    lease_expires_at: text('lease_expires_at').notNull(),
  },
  (table) => [uniqueIndex('license_machines_license_fingerprint_idx').on(table.license_id, table.fingerprint)],
);

/** Every change of a license, for the admins: who (an admin, the owner, the software, the system), what, when. */
export const licenseEvents = sqliteTable(
  'license_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    actor_user_id: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actor_kind: text('actor_kind', { enum: ['admin', 'user', 'software', 'system'] }).notNull(),
    /** e.g. created, updated, suspended, unsuspended, extended, machine_activated, machine_deactivated, reminder_sent. */
    action: text('action').notNull(),
    /** JSON with what changed (never the key). */
    detail: text('detail').notNull().default('{}'),
    created_at: text('created_at').notNull().default(nowIso),
  },
  (table) => [index('license_events_license_idx').on(table.license_id, table.created_at)],
);

/**
 * Expiry reminders, one row per (license, kind), inserted in the transaction that decides to send it, so
 * a reminder is never sent twice, also across restarts (docs/engineering.md, scheduled work).
 */
export const licenseReminders = sqliteTable(
  'license_reminders',
  {
    license_id: integer('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['expires_in_7_days', 'expires_in_1_day', 'expired'] }).notNull(),
    /** When the scheduler last claimed it (its first send, or a retry): the retry delay counts from here. */
    created_at: text('created_at').notNull().default(nowIso),
    /** When the mail went out; null while it is being sent or after a send failed (retried later). */
    sent_at: text('sent_at'),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.license_id, table.kind] })],
);

export const bannedDomains = sqliteTable('banned_domains', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  domain: text('domain').notNull().unique(),
  ...timestamps,
});

export const homeSections = sqliteTable('home_sections', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  body: text('body').notNull().default(''),
  order: integer('order').notNull().default(0),
  ...timestamps,
});

export const homeImages = sqliteTable(
  'home_images',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull().default(''),
    alt: text('alt').notNull().default(''),
    // JSON: { thumb: url, lg: url } plus their pixel sizes, made by sharp at upload.
    urls: text('urls').notNull(),
    sizes: text('sizes').notNull().default('{}'),
    // 0 means not assigned to any section (docs/product/data-model.md).
    home_section_id: integer('home_section_id').notNull().default(0),
    order: integer('order').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('home_images_section_idx').on(table.home_section_id)],
);

export const sections = sqliteTable(
  'sections',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    namespace: text('namespace', { enum: NAMESPACES }).notNull(),
    title: text('title').notNull(),
    title_slug: text('title_slug').notNull(),
    order: integer('order').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('sections_namespace_slug_unique').on(table.namespace, table.title_slug),
    check('sections_namespace_check', sql`${table.namespace} in ('news', 'documentation', 'tutorials')`),
  ],
);

export const uploadedFiles = sqliteTable(
  'uploaded_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    namespace: text('namespace').notNull(),
    // The user's file name, only ever sent back in headers; on disk the file has a random name.
    filename: text('filename').notNull(),
    stored_name: text('stored_name').notNull().unique(),
    description: text('description').notNull().default(''),
    mime_type: text('mime_type').notNull().default('application/octet-stream'),
    size: integer('size').notNull().default(0),
    sha256: text('sha256').notNull().default(''),
    ...timestamps,
  },
  (table) => [index('uploaded_files_namespace_idx').on(table.namespace)],
);

export const posts = sqliteTable(
  'posts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    namespace: text('namespace', { enum: NAMESPACES }).notNull(),
    section_id: integer('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    title_slug: text('title_slug').notNull(),
    body: text('body').notNull().default(''),
    published: integer('published').notNull().default(0),
    display_order: integer('display_order').notNull().default(0),
    uploaded_file_id: integer('uploaded_file_id').references(() => uploadedFiles.id, { onDelete: 'restrict' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('posts_namespace_slug_unique').on(table.namespace, table.title_slug),
    index('posts_section_idx').on(table.section_id, table.display_order),
  ],
);

export const uploadedImages = sqliteTable(
  'uploaded_images',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    namespace: text('namespace').notNull(),
    title: text('title').notNull().default(''),
    alt: text('alt').notNull().default(''),
    // JSON: URLs of the size variants (thumb, image, lg; video for YouTube items).
    image_url: text('image_url').notNull(),
    // JSON: { [variant]: { width, height } }.
    sizes: text('sizes').notNull().default('{}'),
    is_video: integer('is_video').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('uploaded_images_namespace_idx').on(table.namespace)],
);

export const downloadItems = sqliteTable('download_items', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  body: text('body').notNull().default(''),
  release: text('release').notNull().default('0'),
  is_current: integer('is_current').notNull().default(0),
  downloadable: integer('downloadable').notNull().default(0),
  // Issue 25 (docs/updates.md): `MAJOR.MINOR.PATCH[-pre]`; only a release with one appears in update feeds.
  version: text('version'),
  channel: text('channel', { enum: ['stable', 'beta'] })
    .notNull()
    .default('stable'),
  // When the release counts as published for maintenance windows. Filled by the app (SQLite cannot add a
  // column whose default is an expression); the migration copied created_at into the rows before it.
  released_at: text('released_at')
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
  // An entitlement code a license must carry to download it; null: every verified user may.
  entitlement: text('entitlement'),
  // The files of a release are rows of release_files (server/db/schema-releases.ts).
  ...timestamps,
});

export const mailings = sqliteTable('mailings', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  body: text('body').notNull(),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});

export const mailingRecipients = sqliteTable(
  'mailing_recipients',
  {
    mailing_id: integer('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    // 'skipped': the user unsubscribed after the mailing was queued, so it was not sent (a TypeScript-only
    // enum: no CHECK constraint, so adding a value needs no migration).
    status: text('status', { enum: ['pending', 'sent', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: integer('next_attempt_at').notNull().default(0),
    last_error: text('last_error'),
    sent_at: text('sent_at'),
  },
  (table) => [
    primaryKey({ columns: [table.mailing_id, table.user_id] }),
    // In the claim's order (server/features/mailings/queries.ts): a claim reads its batch's rows off the index
    // and stops, instead of sorting every due row of the mailing on each claim (docs/decisions/0075-mailing-lanes-across-batches.md).
    index('mailing_recipients_due_idx').on(table.status, table.next_attempt_at, table.mailing_id, table.user_id),
  ],
);

/**
 * The admin inbox's state (docs/product/admin.md#inbox) is shared by all admins, like a team mailbox: read_at when any admin
 * first opened the item, handled_at/handled_by while it counts as handled (cleared again by Reopen).
 */
const inboxState = {
  read_at: text('read_at'),
  handled_at: text('handled_at'),
  // No foreign key: SQLite adds a referencing column to an existing table only without ON DELETE, and a
  // plain reference would then refuse to delete an admin who handled something. A deleted admin reads as null.
  handled_by: integer('handled_by'),
  // Who is answering it (issue 28, item 23: "assign to me"), so two admins do not answer the same message. No foreign key,
  // for the reason above; a deleted admin reads as null, which means nobody.
  assigned_to: integer('assigned_to'),
};

export const contactMessages = sqliteTable('contact_messages', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  created_at: text('created_at').notNull().default(nowIso),
  ...inboxState,
});

/**
 * One row per Request License that waits for an admin (users.license_request is the user's flag; this is the
 * inbox item, so a second request after a decline is a new item). Closed by a grant (outcome 'granted',
 * server/db/queries/users.ts syncLicenseFlags) or a decline with its reason.
 */
export const licenseRequests = sqliteTable(
  'license_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: text('created_at').notNull().default(nowIso),
    ...inboxState,
    outcome: text('outcome', { enum: ['granted', 'declined'] }),
    decline_reason: text('decline_reason'),
    // Who granted or declined it and when. Apart from handled_*, which Reopen clears: a granted request reopened stays
    // recognisably granted (issue 28, item 3). Older rows have none; the inbox then reads handled_* as before.
    decided_at: text('decided_at'),
    decided_by: integer('decided_by'),
  },
  (table) => [index('license_requests_user_idx').on(table.user_id)],
);

/**
 * The conversation of an inbox item after its first message: replies an admin sent from the inbox (the text as mailed)
 * and the answers the user wrote from the dashboard's Support card (issue 28, section 1), who wrote them and when.
 */
export const inboxReplies = sqliteTable(
  'inbox_replies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contact_message_id: integer('contact_message_id').references(() => contactMessages.id, { onDelete: 'cascade' }),
    license_request_id: integer('license_request_id').references(() => licenseRequests.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    sent_by: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    /** 'admin': mailed to the visitor from the inbox; 'user': the user's answer from their dashboard. */
    author: text('author', { enum: ['admin', 'user'] })
      .notNull()
      .default('admin'),
    created_at: text('created_at').notNull().default(nowIso),
  },
  (table) => [index('inbox_replies_contact_idx').on(table.contact_message_id), index('inbox_replies_license_request_idx').on(table.license_request_id)],
);

/**
 * The legal pages (issue 28, section 1: /privacy, /terms, /imprint): markdown an admin edits in place, published like
 * other content. One row per page, made with its starting text at every start when missing (server/features/legal-pages).
 */
export const legalPages = sqliteTable('legal_pages', {
  slug: text('slug', { enum: ['privacy', 'terms', 'imprint'] }).primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull().default(''),
  updated_at: text('updated_at').notNull().default(nowIso),
});

/** Single-row key/value settings the server keeps (bot-check secret, seed marker). */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type TwoFactorCredential = typeof twoFactorCredentials.$inferSelect;
export type TwoFactorPendingLogin = typeof twoFactorPendingLogins.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;
export type PasskeyChallenge = typeof passkeyChallenges.$inferSelect;
export type License = typeof licenses.$inferSelect;
export type LicenseType = typeof licenseTypes.$inferSelect;
export type Section = typeof sections.$inferSelect;
export type Post = typeof posts.$inferSelect;
export type HomeSection = typeof homeSections.$inferSelect;
export type HomeImage = typeof homeImages.$inferSelect;
export type DownloadItem = typeof downloadItems.$inferSelect;
export type UploadedFile = typeof uploadedFiles.$inferSelect;
export type UploadedImage = typeof uploadedImages.$inferSelect;
export type ContactMessage = typeof contactMessages.$inferSelect;
export type LicenseRequest = typeof licenseRequests.$inferSelect;
export type InboxReply = typeof inboxReplies.$inferSelect;
export type LegalPage = typeof legalPages.$inferSelect;

/**
 * Bot-check challenges already spent (issue 3: each g_token works once). Keyed by the challenge's random
 * nonce; a row is only needed until the challenge expires, after which expiry alone refuses it.
 */
export const botcheckSpent = sqliteTable(
  'botcheck_spent',
  {
    nonce: text('nonce').primaryKey(),
    /** Milliseconds since the epoch. */
    expires_at: integer('expires_at').notNull(),
  },
  (table) => [index('botcheck_spent_expires_idx').on(table.expires_at)],
);

/**
 * Rate-limit counters (server/auth/rate-limit.ts), in the database so that every serving process counts
 * against the same limits (docs/decisions/0022-one-process-model.md). One row per limiter and key: the times
 * of its hits still inside the window, oldest first, never more than the limit.
 */
export const rateLimitHits = sqliteTable(
  'rate_limit_hits',
  {
    limiter: text('limiter').notNull(),
    key: text('key').notNull(),
    /** JSON array of milliseconds since the epoch. */
    hits: text('hits').notNull(),
    /** Milliseconds since the epoch when the newest hit leaves the window: the row is useless after it. */
    expires_at: integer('expires_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.limiter, table.key] }), index('rate_limit_hits_expires_idx').on(table.expires_at)],
);
