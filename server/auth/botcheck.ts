// The self-hosted bot check (issue 3, item 1): ALTCHA proof of work, no third-party service. The browser
// fetches a signed challenge, searches for a counter whose PBKDF2 key starts with the required prefix, and
// submits `g_token` = base64(JSON {challenge, solution}) with the form. Here we verify it with altcha-lib's
// own verifySolution, add the expiry check on our clock, and spend each challenge once.
// Why these parameters: docs/decisions/0005-bot-check.md.
import { randomBytes } from 'node:crypto';
import { createChallenge, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../context.ts';
import type { Db } from '../db/client.ts';
import { writeTransaction } from '../db/client.ts';
import { isBotChallengeSpent, spendBotChallenge } from '../db/queries/botcheck.ts';
import { getSetting, setSetting } from '../db/queries/settings.ts';
import { errorResponse } from '../http/errors.ts';

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

export type BotCheckResult = { ok: true } | { ok: false; message: string };

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
 * expired and replayed tokens fail with a message for the user. The cheap refusals (shape, expiry, already
 * spent) come before the key derivation, and a challenge is spent as soon as its signature proves it ours,
 * even when the solution is wrong, so one challenge cannot be used to make the server derive keys twice.
 */
export async function verifyBotToken(ctx: Pick<AppContext, 'config' | 'db' | 'now' | 'log'>, gToken: unknown): Promise<BotCheckResult> {
  const token = decodeToken(gToken);
  if (!token) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  const { parameters } = token.challenge;
  const now = ctx.now();
  // Unsigned until verifySolution below, but trusting it early is safe: it can only make us refuse.
  const expires = parameters.data.expires;
  if (now > expires) return { ok: false, message: BOTCHECK_MESSAGES.expired };
  if (isBotChallengeSpent(ctx.db, parameters.nonce)) return { ok: false, message: BOTCHECK_MESSAGES.used };

  let verification: Awaited<ReturnType<typeof verifySolution>>;
  try {
    verification = await verifySolution({ challenge: token.challenge, solution: token.solution, deriveKey, hmacSignatureSecret: getBotcheckSecret(ctx) });
  } catch (error) {
    ctx.log.debug('Bot check token could not be verified', error);
    return { ok: false, message: BOTCHECK_MESSAGES.failed };
  }
  // Expiry is ours (signed data, not altcha's expiresAt), so `expired` here cannot be set; the signature can.
  if (verification.invalidSignature !== false) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  if (!spendBotChallenge(ctx.db, parameters.nonce, expires, now)) return { ok: false, message: BOTCHECK_MESSAGES.used };
  if (!verification.verified) return { ok: false, message: BOTCHECK_MESSAGES.failed };
  return { ok: true };
}

/**
 * Route guard: reads `g_token` from the JSON body and answers 422 `{message, errors: {g_token: [message]}}`
 * unless it verifies, before the handler runs, so a refused request changes nothing. Hono caches the
 * parsed body, so validators and handlers after this still read it.
 */
export function requireBotToken(ctx: AppContext) {
  return createMiddleware<AppEnv>(async (c, next) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    const gToken = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).g_token : undefined;
    const result = await verifyBotToken(ctx, gToken);
    if (!result.ok) return errorResponse(c, 422, result.message, { g_token: [result.message] });
    await next();
  });
}
