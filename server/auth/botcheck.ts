// The self-hosted bot check (issue 3, item 1): ALTCHA proof of work, no third-party service. The browser
// fetches a signed challenge, searches for a counter whose PBKDF2 key starts with the required prefix, and
// submits `g_token` = base64(JSON {challenge, solution}) with the form. Here we verify it with altcha-lib's
// own verifySolution, add the expiry check on our clock, and spend each challenge once.
// Why these parameters: docs/decisions/0005-bot-check.md.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../context.ts';
import type { Db } from '../db/client.ts';
import { writeTransaction } from '../db/client.ts';
import { isBotChallengeSpent, spendBotChallenge } from '../db/queries/botcheck.ts';
import { getSetting, setSetting } from '../db/queries/settings.ts';
import { errorResponse } from '../http/errors.ts';
import { clientIp, UNKNOWN_IP } from '../http/client-ip.ts';
import { tooManyRequests } from '../http/throttle.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { botcheckRefusals } from '../ops/metrics.ts';

/** Native WebCrypto in every browser, so the widget's work runs at full speed without WASM. */
export const BOTCHECK_ALGORITHM = 'PBKDF2/SHA-256';
/** Long enough for a slow phone and a user who reads the form before submitting; short enough to limit stockpiling. */
export const BOTCHECK_LIFETIME_MS = 10 * 60 * 1000;
/** One hex digit: one counter in 16 solves, so a solve costs about 16 × BOTCHECK_COST PBKDF2 iterations. */
const KEY_PREFIX = '0';
const SECRET_SETTING = 'botcheck_secret';
/** A real token is about 600 characters; anything far larger is not worth decoding. */
const MAX_TOKEN_LENGTH = 4096;

export const BOTCHECK_MESSAGES = {
  failed: 'The bot check failed. Please try again.',
  expired: 'The bot check has expired. Please try again.',
  used: 'This bot check was already used. Please try again.',
} as const;

export type BotCheckResult = { ok: true } | { ok: false; message: string } | { ok: false; retryAfterSeconds: number };

/**
 * Key derivations (each BOTCHECK_COST PBKDF2 iterations) per client address: a person needs one per form
 * sent, so the default BOTCHECK_VERIFY_PER_MINUTE of twenty is plenty, and a flood of signed but unsolved
 * tokens costs at most that many derivations a minute per address (issue 17, item 1;
 * docs/decisions/0005-bot-check.md).
 */
export const BOTCHECK_VERIFY_WINDOW_MS = 60_000;
/** The solver writes the counter as a big-endian uint32 (altcha's default counter mode). */
const MAX_COUNTER = 0xffffffff;

/**
 * The key derivation verifySolution runs, behind an object so tests can count derivations
 * (vi.spyOn(botcheckKdf, 'deriveKey')) and prove a refusal derived nothing.
 */
export const botcheckKdf = { deriveKey };

const hex = (length?: number) => z.string().regex(length ? new RegExp(`^[0-9a-f]{${length}}$`) : /^(?:[0-9a-f]{2})+$/);

// The shape a token must have before any crypto runs. Loose objects keep unknown parameters, because the
// signature covers every parameter as sent: dropping one would turn a genuine token into a forged one.
const tokenSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.literal(BOTCHECK_ALGORITHM),
      nonce: hex(32),
      salt: hex(32),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive(),
      keyPrefix: z.string().regex(/^[0-9a-f]+$/),
      data: z.object({ expires: z.number() }).catchall(z.union([z.string(), z.number(), z.boolean(), z.null()])),
    }),
    signature: hex(64),
  }),
  solution: z.looseObject({ counter: z.number().int().nonnegative(), derivedKey: hex() }),
});

// Secrets by database: every context built on one database (the app's and a test's copy) shares one.
const secrets = new WeakMap<Db, string>();
// One verification limiter per database, so every context on it (and every process) counts together.
const verifyLimiters = new WeakMap<Db, RateLimiter>();

function verifyLimiter(ctx: Pick<AppContext, 'config' | 'db' | 'now'>): RateLimiter {
  let limiter = verifyLimiters.get(ctx.db);
  if (!limiter) {
    limiter = createRateLimiter({
      limit: ctx.config.botcheckVerifyPerMinute,
      windowMs: BOTCHECK_VERIFY_WINDOW_MS,
      db: ctx.db,
      name: 'botcheck-verify',
      now: ctx.now,
    });
    verifyLimiters.set(ctx.db, limiter);
  }
  return limiter;
}

// altcha's canonical JSON (keys sorted at every level, undefined dropped), which its signature covers.
function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .flatMap((key) => {
        const item = (value as Record<string, unknown>)[key];
        return item === undefined ? [] : [[key, sortKeys(item)]];
      }),
  );
}

/** The HMAC-SHA-256 check verifySolution also makes, done here first because it costs microseconds. */
function signatureIsOurs(challenge: { parameters: unknown; signature: string }, secret: string): boolean {
  const expected = createHmac('sha256', secret)
    .update(JSON.stringify(sortKeys(challenge.parameters)))
    .digest();
  const given = Buffer.from(challenge.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * BOTCHECK_SECRET when configured; otherwise a random secret generated on first use and kept in the
 * settings table, so a restart keeps accepting challenges handed out before it.
 */
export function getBotcheckSecret(ctx: Pick<AppContext, 'config' | 'db'>): string {
  if (ctx.config.botcheckSecret) return ctx.config.botcheckSecret;
  const cached = secrets.get(ctx.db);
  if (cached) return cached;
  // In one transaction, so two processes starting together end up with the same secret.
  const secret = writeTransaction(ctx.db, () => {
    const stored = getSetting(ctx.db, SECRET_SETTING);
    if (stored) return stored;
    const fresh = randomBytes(32).toString('base64url');
    setSetting(ctx.db, SECRET_SETTING, fresh);
    return fresh;
  });
  secrets.set(ctx.db, secret);
  return secret;
}

/** A fresh signed challenge for the widget. Its expiry is signed data, checked on our clock (ctx.now). */
export async function createBotChallenge(ctx: Pick<AppContext, 'config' | 'db' | 'now'>): Promise<Challenge> {
  return createChallenge({
    algorithm: BOTCHECK_ALGORITHM,
    cost: ctx.config.botcheckCost,
    deriveKey,
    keyPrefix: KEY_PREFIX,
    hmacSignatureSecret: getBotcheckSecret(ctx),
    // Not altcha's own `expiresAt`: verifySolution compares that with Date.now(), which tests with a fake
    // clock cannot move, and expiry is a rule of ours.
    data: { expires: ctx.now() + BOTCHECK_LIFETIME_MS },
  });
}

function decodeToken(gToken: unknown): z.infer<typeof tokenSchema> | undefined {
  if (typeof gToken !== 'string' || gToken.length === 0 || gToken.length > MAX_TOKEN_LENGTH) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(gToken)) return undefined;
  try {
    const parsed = tokenSchema.safeParse(JSON.parse(Buffer.from(gToken, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies a g_token and spends its challenge. Missing, malformed, forged (bad signature), wrongly solved,
 * expired and replayed tokens fail with a message for the user. Everything cheap comes before the key
 * derivation, so refusing costs less than the client's request (issue 17, item 1): shape, expiry, already
 * spent, our signature (an HMAC), the counter's range and a derived key of the right length and prefix.
 * A challenge is spent as soon as its signature proves it ours, even when the solution is wrong, so one
 * challenge cannot make the server derive keys twice; and only `BOTCHECK_VERIFY_PER_MINUTE` derivations
 * per client `address` are allowed, counted before deriving (`retryAfterSeconds` when refused).
 */
export async function verifyBotToken(ctx: Pick<AppContext, 'config' | 'db' | 'now' | 'log'>, gToken: unknown, address = UNKNOWN_IP): Promise<BotCheckResult> {
  const token = decodeToken(gToken);
  if (!token) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  const { parameters } = token.challenge;
  const now = ctx.now();
  // Unsigned until the signature check below, but trusting it early is safe: it can only make us refuse.
  const expires = parameters.data.expires;
  if (now > expires) return { ok: false, message: BOTCHECK_MESSAGES.expired };
  if (isBotChallengeSpent(ctx.db, parameters.nonce)) return { ok: false, message: BOTCHECK_MESSAGES.used };
  const secret = getBotcheckSecret(ctx);
  if (!signatureIsOurs(token.challenge, secret)) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  if (!spendBotChallenge(ctx.db, parameters.nonce, expires, now)) return { ok: false, message: BOTCHECK_MESSAGES.used };

  // An unsolved answer ({"counter":0,"derivedKey":"00"}) is refused here, without deriving: a real key has
  // exactly keyLength bytes and starts with the prefix the solver searched for.
  const { counter, derivedKey } = token.solution;
  if (counter > MAX_COUNTER || derivedKey.length !== parameters.keyLength * 2 || !derivedKey.startsWith(parameters.keyPrefix)) {
    return { ok: false, message: BOTCHECK_MESSAGES.failed };
  }
  const decision = verifyLimiter(ctx).consume(address);
  if (!decision.allowed) return { ok: false, retryAfterSeconds: decision.retryAfterSeconds };

  let verification: Awaited<ReturnType<typeof verifySolution>>;
  try {
    verification = await verifySolution({
      challenge: token.challenge,
      solution: token.solution,
      deriveKey: botcheckKdf.deriveKey,
      hmacSignatureSecret: secret,
    });
  } catch (error) {
    ctx.log.debug('Bot check token could not be verified', error);
    return { ok: false, message: BOTCHECK_MESSAGES.failed };
  }
  // Expiry is ours (signed data, not altcha's expiresAt), so `expired` here cannot be set.
  if (!verification.verified) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  return { ok: true };
}

export interface RequireBotTokenOptions {
  /** The field a 429 is shown under, as the route's own throttle answers (docs/product/messages.md). */
  field?: string;
  /** Counts a failed check in the route's own limit (login, registration, contact: issue 17, item 1). */
  onFailure?: (c: Context<AppEnv>, body: Record<string, unknown>) => void;
}

/**
 * Route guard: reads `g_token` from the JSON body and answers 422 `{message, errors: {g_token: [message]}}`
 * unless it verifies (429 with Retry-After when the client's address is past BOTCHECK_VERIFY_PER_MINUTE),
 * before the handler runs, so a refused request changes nothing but the counters `onFailure` adds to. Hono caches the
 * parsed body, so validators and handlers after this still read it.
 */
export function requireBotToken(ctx: AppContext, options: RequireBotTokenOptions = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const result = await verifyBotToken(ctx, fields.g_token, clientIp(c, ctx.config));
    if (!result.ok) {
      botcheckRefusals.inc({ reason: 'retryAfterSeconds' in result ? 'throttled' : 'invalid' });
      // A body with no token at all (broken JSON, a field missing) was refused before anything cost us, and
      // counting it would throttle a visitor's malformed requests as if they were bot attempts.
      if (typeof fields.g_token === 'string' && fields.g_token !== '') options.onFailure?.(c, fields);
      if ('retryAfterSeconds' in result) return tooManyRequests(c, result.retryAfterSeconds, options.field);
      return errorResponse(c, 422, result.message, { g_token: [result.message] });
    }
    await next();
  });
}
