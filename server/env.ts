// The only reader of process.env (docs/engineering.md#habits, habit 11). Everything the server can be configured with is parsed,
// validated and defaulted here once, so a wrong value stops the start with a message naming it.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z.enum(['1', '0', 'true', 'false', 'yes', 'no']).transform((value) => value === '1' || value === 'true' || value === 'yes');

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** More serving processes than this only add memory (each holds the whole site) on any machine we target. */
const MAX_WEB_WORKERS = 8;

const envSchema = z.object({
  // Unset means development for everything but the mail links in the log, which need it said explicitly
  // (issue 17, item 9): a server started without NODE_ENV logs no working reset links.
  NODE_ENV: z.enum(['development', 'production', 'test']).optional(),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  CONTENT_DIR: optionalText,
  SITE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
  SITE_NAME: z.string().trim().min(1).default('Dimensional Control'),
  ADMIN_EMAIL: optionalText.pipe(z.email({ message: 'must be an e-mail address' }).optional()),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, 'must be at least 8 characters').optional()),
  MAIL_FROM: optionalText,
  // One more address that gets every contact message and license request, besides the admins (docs/product/admin.md#inbox).
  NOTIFY_EMAIL: optionalText.pipe(z.email({ message: 'must be an e-mail address' }).optional()),
  // The address the dashboard names when a license request fails; unset: the first admin's address.
  SUPPORT_EMAIL: optionalText.pipe(z.email({ message: 'must be an e-mail address' }).optional()),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional()),
  BOTCHECK_SECRET: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  BOTCHECK_COST: z.coerce.number().int().min(1).max(10_000_000).default(50_000),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 ** 3),
  IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 ** 2),
  BUILD_ON_START: booleanFlag.default(true),
  SEED_DEMO: booleanFlag.default(true),
  // Bot-check key derivations per client IP a minute (docs/decisions/0005-bot-check.md); raise it where
  // many forms are sent from one address (the browser tests, the bench).
  BOTCHECK_VERIFY_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(20),
  // Login attempts per account (its e-mail) from any address in 15 minutes, then a lockout with a notice
  // mail (server/features/sessions/routes.ts); raise it only where one account logs in very often on purpose
  // (the browser tests sign the same admin in for every test).
  ACCOUNT_LOGINS_PER_15_MINUTES: z.coerce.number().int().min(1).max(10_000_000).default(20),
  // Per client IP; raise it where many sign-ups share one address (the browser tests, an office NAT).
  REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  // Contact messages per client address in 10 minutes (the contact form).
  CONTACT_MESSAGES_PER_10_MINUTES: z.coerce.number().int().min(1).max(100_000).default(5),
  // Account mails (verification, reset, lockout notice, …) to one address a day, however many accounts or
  // clients ask (issue 17, item 3; server/mail/recipient-cap.ts). Mailings and admin notices do not count.
  ACCOUNT_MAILS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(10),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  // JSON lines (production) or readable lines (pino-pretty, a development dependency); unset: pretty only under NODE_ENV=development.
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  TRUST_PROXY: booleanFlag.default(false),
  // nginx serves the build's files from disk (deploy/nginx.conf): the serving processes then keep no page
  // bodies in memory, which nobody would ask them for (issue 31, item 3). The primary still writes each
  // build's .br/.gz forms, which nginx sends.
  NGINX_SERVES_PAGES: booleanFlag.default(false),
  WEB_WORKERS: z
    .string()
    .trim()
    .refine(
      (value) => value === 'auto' || (/^\d+$/.test(value) && Number(value) <= MAX_WEB_WORKERS),
      `must be 'auto' or a whole number from 0 to ${MAX_WEB_WORKERS}`,
    )
    .default('auto'),
  SERVED_BY_HEADER: booleanFlag.default(false),
  // Slowloris guard: a request's headers must all arrive within this.
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  // A request's body must have arrived within this; only an admin's upload may take longer (issue 17).
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  // After SIGTERM, in-flight requests, a running publish and the mail in flight get this long (docs/decisions/0033-graceful-stop.md).
  SHUTDOWN_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(30),
  // Open connections per client address in each serving process; 0: no cap. Off behind TRUST_PROXY.
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(64),
  // Absolute session lifetimes (issue 17): a session ends this long after sign-in even while in use.
  SESSION_REMEMBER_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SESSION_BROWSER_HOURS: z.coerce.number().int().min(1).max(8760).default(12),
  // The Ed25519 key that signs license files, as a PKCS#8 PEM; without it one is made in $DATA_DIR/secrets.
  LICENSE_SIGNING_KEY: optionalText,
  // The Ed25519 key that signs release files for the update feeds (docs/updates.md), likewise.
  UPDATE_SIGNING_KEY: optionalText,
  // The AES-256 key that encrypts authenticator secrets at rest: 32 bytes as 64 hex digits or base64; without
  // it one is made in $DATA_DIR/secrets/two-factor.key (docs/decisions/0023-two-factor-sign-in.md).
  TWO_FACTOR_ENCRYPTION_KEY: optionalText.pipe(
    z
      .string()
      .refine((value) => decodeKey(value) !== undefined, 'must be 32 bytes as 64 hex digits or base64')
      .optional(),
  ),
  // How long a machine-bound license file stays valid without a check-in.
  LICENSE_LEASE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Calls of the licensing API per minute (docs/licensing.md): per client address (an office behind one
  // NAT starts many machines at nine) and per license key (one key's machines check in rarely).
  LICENSING_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  LICENSING_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(60),
  // Webhooks may go to loopback, private and link-local addresses (tests, intranets): docs/integrations.md#delivery.
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  // Calls of /api/v1/ per minute per API token, and per client address (docs/integrations.md#api-tokens).
  API_TOKEN_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(120),
  API_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(600),
  // GET /readyz answers 503 when the disk holding DATA_DIR has less free space than this (README, Operations).
  READY_MIN_FREE_MB: z.coerce.number().int().min(0).max(10_000_000).default(100),
  // GET /metrics from anywhere but this machine needs `Authorization: Bearer <token>` (docs/decisions/0031-observability.md).
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  // Where stored files live (docs/decisions/0050-object-storage.md): the local directories, or an
  // S3-compatible bucket named by the S3_* settings (README, Production).
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
  S3_REGION: optionalText,
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  // Where the bucket's media/ keys are public, usually a CDN in front of the bucket (docs/scaling.md).
  S3_PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
});

export type RawEnv = z.input<typeof envSchema>;

/** A 256-bit key written as 64 hex digits or as base64 (either alphabet); undefined when it is neither. */
export function decodeKey(text: string): Buffer | undefined {
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  port: number;
  dataDir: string;
  databaseFile: string;
  contentDir: string;
  buildsDir: string;
  /** Public media (images), served under /media. */
  uploadsDir: string;
  /** Gated files (downloads, attached files): never served directly, only through permission-checked routes. */
  privateFilesDir: string;
  outboxDir: string;
  siteUrl: string;
  siteOrigin: string;
  secureCookies: boolean;
  siteName: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  mailFrom: string;
  /** Notified of contact messages and license requests on top of every admin (docs/product/admin.md#inbox). */
  notifyEmail: string | undefined;
  /** Named to users when a license request fails; undefined: the first admin's address. */
  supportEmail: string | undefined;
  smtpUrl: string | undefined;
  botcheckSecret: string | undefined;
  botcheckCost: number;
  uploadMaxBytes: number;
  imageMaxBytes: number;
  buildOnStart: boolean;
  /** NGINX_SERVES_PAGES: the static site is served from disk by nginx; Node holds no page bodies. */
  nginxServesPages: boolean;
  seedDemo: boolean;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** JSON lines, or readable lines for a developer's terminal (README, Operations). */
  logFormat: 'json' | 'pretty';
  registrationsPerHour: number;
  /** Contact messages per client address in 10 minutes. */
  contactMessagesPer10Minutes: number;
  /** Login attempts per account from any address in 15 minutes (ACCOUNT_LOGINS_PER_15_MINUTES). */
  accountLoginsPer15Minutes: number;
  /** Account mails one address gets a day at most (server/mail/recipient-cap.ts). */
  accountMailsPerDay: number;
  /**
   * Outbox mode only: log the links of each message (working verification and reset links). Only with
   * NODE_ENV=development said explicitly (`npm run dev` says it), never by default (issue 17, item 9).
   */
  logMailLinks: boolean;
  botcheckVerifyPerMinute: number;
  /**
   * A reverse proxy in front sets X-Forwarded-For/-Host/-Proto: only then do they count (client IP for
   * rate limits, the request's own origin for the Origin check). Off, a client could forge them.
   */
  trustProxy: boolean;
  /**
   * Extra serving processes, each answering the static site and the whole API on the same port
   * (SO_REUSEPORT; docs/decisions/0022-one-process-model.md). 0: the primary alone.
   */
  webWorkers: number;
  /** Headers of a request must all arrive within this many milliseconds, in every serving process. */
  headersTimeoutMs: number;
  /** A request's body must have arrived within this many milliseconds, except an admin's upload. */
  bodyTimeoutMs: number;
  /**
   * After SIGTERM: how long in-flight requests (uploads included), a running publish and the mail being sent
   * may take before they are cut and the process exits anyway (docs/decisions/0033-graceful-stop.md).
   */
  shutdownTimeoutMs: number;
  /** Open connections one client address may hold per serving process (0: no cap); see connectionCap(). */
  maxConnectionsPerClient: number;
  /** PEM of the key that signs license files; undefined: the newest key in $DATA_DIR/secrets/license-signing. */
  licenseSigningKey: string | undefined;
  /** PEM of the key that signs release files for the update feeds; undefined: the newest in $DATA_DIR/secrets/update-signing. */
  updateSigningKey: string | undefined;
  /** Key for authenticator secrets at rest; undefined: the key file in $DATA_DIR/secrets (server/auth/secret-box.ts). */
  twoFactorEncryptionKey: Buffer | undefined;
  /** Days a machine-bound license file is valid without a check-in. */
  licenseLeaseDays: number;
  /** Licensing API calls per minute per client address. */
  licensingRequestsPerMinute: number;
  /** Licensing API calls per minute per license key (known or not). */
  licensingKeyRequestsPerMinute: number;
  /** Webhook destinations may be internal addresses (docs/integrations.md#delivery). */
  webhooksAllowPrivate: boolean;
  /** /api/v1/ calls per minute per API token and per client address. */
  apiTokenRequestsPerMinute: number;
  apiRequestsPerMinute: number;
  /**
   * How long after sign-in a session ends at the latest, however much it is used (sliding renewal stays
   * within it): remember-me sessions and browser sessions, in milliseconds.
   */
  sessionAbsoluteLifetimeMs: { persistent: number; browser: number };
  /** Debug aid for tests and benchmarks: an X-Served-By header names the process that answered. */
  servedByHeader: boolean;
  /** GET /readyz fails below this much free disk space under DATA_DIR (bytes). */
  readyMinFreeBytes: number;
  /** The bearer token that opens GET /metrics to other machines; undefined: loopback only. */
  metricsToken: string | undefined;
  storage: StorageConfig;
  projectRoot: string;
}

/** Where stored files live: the local directories (default) or a bucket (docs/decisions/0050-object-storage.md). */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      /** Unset: AWS S3 itself. */
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
      /** Where the bucket's `media/` keys are public, without a trailing slash; unset: the site streams them. */
      publicUrl: string | undefined;
    };

export class ConfigError extends Error {}

const projectRoot = path.resolve(import.meta.dirname, '..');

/** Parses an environment (process.env by default) into the server's configuration, or throws a ConfigError naming every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env, options: { storage?: 'local' | 's3' } = {}): Config {
  // `npm run storage -- migrate --to s3` needs the bucket's settings before STORAGE says s3 (scripts/storage.ts).
  const parsed = envSchema.safeParse(options.storage ? { ...source, STORAGE: options.storage } : source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL/ADMIN_PASSWORD: set both or neither');
  }
  const storage = storageConfig(env);
  const dataDir = path.resolve(projectRoot, env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const siteOrigin = new URL(siteUrl).origin;
  return {
    nodeEnv: env.NODE_ENV ?? 'development',
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    dataDir,
    databaseFile: path.join(dataDir, 'site.db'),
    contentDir: env.CONTENT_DIR ? path.resolve(projectRoot, env.CONTENT_DIR) : path.join(projectRoot, 'content'),
    buildsDir: path.join(dataDir, 'builds'),
    uploadsDir: path.join(dataDir, 'uploads'),
    privateFilesDir: path.join(dataDir, 'private'),
    outboxDir: path.join(dataDir, 'outbox'),
    siteUrl,
    siteOrigin,
    secureCookies: siteOrigin.startsWith('https:'),
    siteName: env.SITE_NAME,
    adminEmail: env.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD,
    mailFrom: env.MAIL_FROM ?? `${env.SITE_NAME} <no-reply@${new URL(siteUrl).hostname}>`,
    notifyEmail: env.NOTIFY_EMAIL?.toLowerCase(),
    supportEmail: env.SUPPORT_EMAIL,
    smtpUrl: env.SMTP_URL,
    botcheckSecret: env.BOTCHECK_SECRET,
    botcheckCost: env.BOTCHECK_COST,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    imageMaxBytes: env.IMAGE_MAX_BYTES,
    buildOnStart: env.BUILD_ON_START,
    seedDemo: env.SEED_DEMO,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'development' ? 'pretty' : 'json'),
    registrationsPerHour: env.REGISTRATIONS_PER_HOUR,
    contactMessagesPer10Minutes: env.CONTACT_MESSAGES_PER_10_MINUTES,
    accountLoginsPer15Minutes: env.ACCOUNT_LOGINS_PER_15_MINUTES,
    accountMailsPerDay: env.ACCOUNT_MAILS_PER_DAY,
    logMailLinks: env.NODE_ENV === 'development',
    botcheckVerifyPerMinute: env.BOTCHECK_VERIFY_PER_MINUTE,
    trustProxy: env.TRUST_PROXY,
    nginxServesPages: env.NGINX_SERVES_PAGES,
    webWorkers: env.WEB_WORKERS === 'auto' ? autoWebWorkers() : Number(env.WEB_WORKERS),
    servedByHeader: env.SERVED_BY_HEADER,
    headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: env.BODY_TIMEOUT_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_S * 1000,
    maxConnectionsPerClient: env.MAX_CONNECTIONS_PER_CLIENT,
    licenseSigningKey: env.LICENSE_SIGNING_KEY?.replace(/\\n/g, '\n'),
    updateSigningKey: env.UPDATE_SIGNING_KEY?.replace(/\\n/g, '\n'),
    licenseLeaseDays: env.LICENSE_LEASE_DAYS,
    twoFactorEncryptionKey: env.TWO_FACTOR_ENCRYPTION_KEY === undefined ? undefined : decodeKey(env.TWO_FACTOR_ENCRYPTION_KEY),
    sessionAbsoluteLifetimeMs: { persistent: env.SESSION_REMEMBER_DAYS * 24 * 60 * 60 * 1000, browser: env.SESSION_BROWSER_HOURS * 60 * 60 * 1000 },
    licensingRequestsPerMinute: env.LICENSING_REQUESTS_PER_MINUTE,
    licensingKeyRequestsPerMinute: env.LICENSING_KEY_REQUESTS_PER_MINUTE,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
    apiTokenRequestsPerMinute: env.API_TOKEN_REQUESTS_PER_MINUTE,
    apiRequestsPerMinute: env.API_REQUESTS_PER_MINUTE,
    readyMinFreeBytes: env.READY_MIN_FREE_MB * 1024 * 1024,
    metricsToken: env.METRICS_TOKEN,
    storage,
    projectRoot,
  };
}

/** STORAGE and its S3_* settings; with STORAGE=s3 a missing bucket or key stops the start, naming each. */
function storageConfig(env: z.output<typeof envSchema>): StorageConfig {
  if (env.STORAGE === 'local') return { kind: 'local' };
  const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => env[name] === undefined);
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: required with STORAGE=s3`).join('\n')}`);
  return {
    kind: 's3',
    endpoint: env.S3_ENDPOINT?.replace(/\/+$/, ''),
    region: env.S3_REGION ?? 'us-east-1',
    bucket: env.S3_BUCKET as string,
    accessKeyId: env.S3_ACCESS_KEY_ID as string,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY as string,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    publicUrl: env.S3_PUBLIC_URL?.replace(/\/+$/, ''),
  };
}

/**
 * One more serving process per core beyond the first (the primary serves too). SO_REUSEPORT spreads
 * connections over the processes only on Linux; elsewhere Node refuses the option, so auto means none.
 */
function autoWebWorkers(): number {
  if (process.platform !== 'linux') return 0;
  return Math.min(MAX_WEB_WORKERS, Math.max(0, os.availableParallelism() - 1));
}
