// Passkeys (docs/product/accounts.md#passkeys, docs/decisions/0043-passkeys.md; issue 27):
// - the dashboard's list at /api/user/passkeys: add (options, then the browser's answer), rename, remove.
//   Adding asks for the password unless this session signed in within 5 minutes; removing asks for it unless a
//   passkey signed this session in within 5 minutes. The owner is mailed when one is added or removed.
// - signing in with a passkey alone at /api/auth/passkey: the same answer, session rules, bans, rate limits and
//   lockout notices as the password login (server/features/sessions/login-limits.ts, completeLogin). A passkey
//   with user verification is both factors, so no code step follows. No bot check: the ceremony is the proof.
// - the second step's options at /api/auth/two-factor/passkey-options, bound to the pending login; the step
//   itself is POST /api/auth/two-factor (the two-factor feature), which calls acceptPasskeySecondFactor.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { loadWebAuthn } from '../../lazy-libraries.ts';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { readTwoFactorCookie } from '../../auth/cookies.ts';
import { requireUser, guardedUser } from '../../auth/guards.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { sessionIdFromToken } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { getSession } from '../../db/queries/sessions.ts';
import { getUserById } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { errorResponse } from '../../http/errors.ts';
import { flagFieldOr } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { passkeyAddedEmail, passkeyRemovedEmail } from '../../mail/templates.ts';
import { BANNED_MESSAGE, completeLogin, createLoginLimits, getPendingLogin } from '../sessions/index.ts';
import {
  CHALLENGE_LIFETIME_MS,
  checkAssertion,
  issueChallenge,
  relyingParty,
  secondFactorOptions,
  signInOptions,
  takeChallenge,
  userHandleOf,
} from './ceremony.ts';
import { authenticationResponseField, optionalPasswordField, passkeyNameField, registrationResponseField } from './fields.ts';
import { presentPasskey } from './present.ts';
import {
  countPasskeysOfUser,
  deletePasskeyOfUser,
  getPasskeyByCredentialId,
  getPasskeyOfUser,
  insertPasskey,
  listPasskeysOfUser,
  renamePasskeyOfUser,
} from './queries.ts';

export const PASSKEY_MESSAGES = {
  passwordRequired: 'Enter your password to confirm it is you.',
  wrongPassword: 'The password is incorrect.',
  expired: 'The passkey request has expired. Please try again.',
  notVerified: 'The passkey could not be verified.',
  unknown: 'This passkey is not registered here. Sign in with your password.',
  suspectedClone: 'This passkey has been refused because it may have been copied. Sign in with your password.',
  alreadyAdded: 'This passkey is already on your account.',
  tooMany: (limit: number) => `You have ${limit} passkeys, the most an account can have. Remove one first.`,
  notFound: 'Passkey not found.',
  noPasskey: 'There is no passkey on this account. Use your code instead.',
  signInExpired: 'Your sign-in has expired. Please log in again.',
  tooManyAttempts: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
} as const;

/** How recent a sign-in must be to add (any sign-in) or remove (a passkey sign-in) without the password. */
export const FRESH_SIGN_IN_MS = 5 * 60_000;
export const MAX_PASSKEYS_PER_USER = 20;
/** Password confirmations per user: a stolen session must not guess the password here. */
export const PASSKEY_CONFIRM_THROTTLE = { limit: 10, windowMs: 15 * 60_000 } as const;
/** Sign-in challenges per client address a minute: each is a row until it expires. */
export const PASSKEY_OPTIONS_THROTTLE = { limit: 30, windowMs: 60_000 } as const;

const PASSKEY_ID = /^[1-9][0-9]{0,15}$/;

export function passkeyRoutes(ctx: AppContext) {
  const confirmThrottle = createRateLimiter({ ...PASSKEY_CONFIRM_THROTTLE, db: ctx.db, name: 'passkey-confirm', now: ctx.now });
  const nowIso = () => new Date(ctx.now()).toISOString();

  /** Whether this session's sign-in is recent enough, and (for removing) was made with a passkey. */
  const freshSignIn = (c: Context<AppEnv>, kind: 'add' | 'remove'): boolean => {
    const sessionId = c.get('sessionId');
    const session = sessionId ? getSession(ctx.db, sessionId) : undefined;
    if (!session || ctx.now() - Date.parse(session.created_at) > FRESH_SIGN_IN_MS) return false;
    return kind === 'add' || session.signed_in_with === 'passkey';
  };

  /** The password when the sign-in is not fresh: a refusal answer, or null when the caller is proven. */
  const confirmOwner = async (c: Context<AppEnv>, user: User, kind: 'add' | 'remove', password: string | undefined) => {
    if (freshSignIn(c, kind)) return null;
    if (!password) return errorResponse(c, 422, PASSKEY_MESSAGES.passwordRequired, { password: [PASSKEY_MESSAGES.passwordRequired] });
    const decision = confirmThrottle.consume(String(user.id));
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfterSeconds));
      const message = PASSKEY_MESSAGES.tooManyAttempts(decision.retryAfterSeconds);
      return errorResponse(c, 429, message, { password: [message] });
    }
    if (!(await verifyPassword(user.password_hash, password))) {
      return errorResponse(c, 422, PASSKEY_MESSAGES.wrongPassword, { password: [PASSKEY_MESSAGES.wrongPassword] });
    }
    return null;
  };

  const list = (user: User) => listPasskeysOfUser(ctx.db, user.id).map(presentPasskey);

  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => {
      const user = guardedUser(c.get('user'));
      // The dialogs ask for the password only when the server will (docs/product/accounts.md#passkeys).
      return c.json({ passkeys: list(user), password_needed: { add: !freshSignIn(c, 'add'), remove: !freshSignIn(c, 'remove') } });
    })
    .post('/options', requireUser, smallJsonBody(), validate('json', z.object({ password: optionalPasswordField })), async (c) => {
      const user = guardedUser(c.get('user'));
      const refused = await confirmOwner(c, user, 'add', c.req.valid('json').password);
      if (refused) return refused;
      const existing = listPasskeysOfUser(ctx.db, user.id);
      if (existing.length >= MAX_PASSKEYS_PER_USER) return errorResponse(c, 422, PASSKEY_MESSAGES.tooMany(MAX_PASSKEYS_PER_USER));
      const rp = relyingParty(ctx.config);
      const { generateRegistrationOptions } = await loadWebAuthn();
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.name,
        userID: userHandleOf(ctx, user.id),
        attestationType: 'none',
        timeout: CHALLENGE_LIFETIME_MS,
        excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: JSON.parse(passkey.transports) as string[] })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      });
      // Bound to this session: the answer counts only from the browser and sign-in that asked.
      issueChallenge(c, ctx, options.challenge, { purpose: 'register', userId: user.id, boundTo: c.get('sessionId') });
      return c.json(options);
    })
    .post('/', requireUser, smallJsonBody(), validate('json', z.object({ name: passkeyNameField, response: registrationResponseField })), async (c) => {
      const user = guardedUser(c.get('user'));
      const { name, response } = c.req.valid('json');
      const challenge = takeChallenge(c, ctx, 'register', { userId: user.id, boundTo: c.get('sessionId') });
      if (challenge === undefined) return errorResponse(c, 422, PASSKEY_MESSAGES.expired, { response: [PASSKEY_MESSAGES.expired] });
      const rp = relyingParty(ctx.config);
      const { verifyRegistrationResponse } = await loadWebAuthn();
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        expectedType: 'webauthn.create',
        requireUserVerification: true,
      }).catch(() => null);
      if (!verification?.verified) return errorResponse(c, 422, PASSKEY_MESSAGES.notVerified, { response: [PASSKEY_MESSAGES.notVerified] });
      const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
      const added = writeTransaction(ctx.db, () => {
        if (getPasskeyByCredentialId(ctx.db, credential.id)) return 'duplicate' as const;
        if (countPasskeysOfUser(ctx.db, user.id) >= MAX_PASSKEYS_PER_USER) return 'full' as const;
        return insertPasskey(ctx.db, {
          user_id: user.id,
          credential_id: credential.id,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: JSON.stringify(response.response.transports ?? []),
          device_type: credentialDeviceType,
          backed_up: credentialBackedUp ? 1 : 0,
          name,
          created_at: nowIso(),
        });
      });
      if (added === 'duplicate') return errorResponse(c, 409, PASSKEY_MESSAGES.alreadyAdded, { response: [PASSKEY_MESSAGES.alreadyAdded] });
      if (added === 'full') return errorResponse(c, 422, PASSKEY_MESSAGES.tooMany(MAX_PASSKEYS_PER_USER));
      void sendSafely(ctx.mailer, { to: user.email, ...passkeyAddedEmail(ctx.config, { name: user.name }) }, ctx.log);
      return c.json({ passkey: presentPasskey(added) }, 201);
    })
    .patch('/:id', requireUser, smallJsonBody(), validate('json', z.object({ name: passkeyNameField })), (c) => {
      const user = guardedUser(c.get('user'));
      const id = c.req.param('id');
      const renamed = PASSKEY_ID.test(id) ? renamePasskeyOfUser(ctx.db, user.id, Number(id), c.req.valid('json').name) : undefined;
      if (!renamed) return errorResponse(c, 404, PASSKEY_MESSAGES.notFound);
      return c.json({ passkey: presentPasskey(renamed) });
    })
    .delete('/:id', requireUser, smallJsonBody(), validate('json', z.object({ password: optionalPasswordField })), async (c) => {
      const user = guardedUser(c.get('user'));
      const id = c.req.param('id');
      // Another user's passkey answers exactly like an unknown one, before any password is checked.
      if (!PASSKEY_ID.test(id) || !getPasskeyOfUser(ctx.db, user.id, Number(id))) return errorResponse(c, 404, PASSKEY_MESSAGES.notFound);
      const refused = await confirmOwner(c, user, 'remove', c.req.valid('json').password);
      if (refused) return refused;
      if (!writeTransaction(ctx.db, () => deletePasskeyOfUser(ctx.db, user.id, Number(id)))) return errorResponse(c, 404, PASSKEY_MESSAGES.notFound);
      void sendSafely(ctx.mailer, { to: user.email, ...passkeyRemovedEmail(ctx.config, { name: user.name }) }, ctx.log);
      return c.body(null, 204);
    });
}

// The client may send the checkbox as a boolean or in its form-encoded spellings, as at the password login.
const signInSchema = z.object({ response: authenticationResponseField, remember_me: flagFieldOr('remember me', 0).transform((flag) => flag === 1) });

export function passkeySignInRoutes(ctx: AppContext) {
  const { loginThrottle, accountThrottle, tooManyAttempts, noticeLockout } = createLoginLimits(ctx);
  const optionsThrottle = createRateLimiter({ ...PASSKEY_OPTIONS_THROTTLE, db: ctx.db, name: 'passkey-options', now: ctx.now });
  const addressOf = (c: Context<AppEnv>) => rateLimitAddress(clientIp(c, ctx.config));

  return new Hono<AppEnv>()
    .post('/options', async (c) => {
      const decision = optionsThrottle.consume(addressOf(c));
      if (!decision.allowed) return tooManyAttempts(c, decision.retryAfterSeconds);
      return c.json(await signInOptions(c, ctx));
    })
    .post('/', smallJsonBody(), validate('json', signInSchema), async (c) => {
      const { response, remember_me } = c.req.valid('json');
      // Counted before the check like the password login's; a success clears this one (not the account's).
      const throttleKey = `passkey|${addressOf(c)}`;
      const decision = loginThrottle.consume(throttleKey);
      if (!decision.allowed) return tooManyAttempts(c, decision.retryAfterSeconds);
      const challenge = takeChallenge(c, ctx, 'sign-in', { userId: null, boundTo: null });
      if (challenge === undefined) return errorResponse(c, 422, PASSKEY_MESSAGES.expired);
      const passkey = getPasskeyByCredentialId(ctx.db, response.id);
      const user = passkey ? getUserById(ctx.db, passkey.user_id) : undefined;
      if (!passkey || !user) return errorResponse(c, 422, PASSKEY_MESSAGES.unknown);
      // The browser says whose passkey it is; it must be the account the credential belongs to.
      if (response.response.userHandle !== undefined && response.response.userHandle !== Buffer.from(userHandleOf(ctx, user.id)).toString('base64url')) {
        return errorResponse(c, 422, PASSKEY_MESSAGES.notVerified);
      }
      const accountKey = user.email.toLowerCase();
      const accountDecision = accountThrottle.consume(accountKey);
      if (!accountDecision.allowed) {
        noticeLockout(accountKey);
        return tooManyAttempts(c, accountDecision.retryAfterSeconds);
      }
      const outcome = await checkAssertion(ctx, user, passkey, response, { challenge, requireUserVerification: true });
      if (outcome !== 'accepted') {
        if (accountDecision.remaining === 0) noticeLockout(accountKey);
        return errorResponse(c, 422, outcome === 'cloned' ? PASSKEY_MESSAGES.suspectedClone : PASSKEY_MESSAGES.notVerified);
      }
      // Only after the proof, as with the password: a ban then tells nothing about who holds the passkey.
      if (user.is_banned) return errorResponse(c, 403, BANNED_MESSAGE);
      loginThrottle.reset(throttleKey);
      // User verification makes the passkey both factors: no code step, even with two-factor on.
      return completeLogin(c, ctx, user, { persistent: remember_me, signedInWith: 'passkey' });
    });
}

export function passkeySecondFactorRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().post('/passkey-options', async (c) => {
    const token = readTwoFactorCookie(c, ctx.config);
    const pending = token === undefined ? undefined : getPendingLogin(ctx.db, sessionIdFromToken(token));
    const user = pending && pending.expires_at > ctx.now() ? getUserById(ctx.db, pending.user_id) : undefined;
    if (!pending || !user) return errorResponse(c, 401, PASSKEY_MESSAGES.signInExpired);
    const options = await secondFactorOptions(c, ctx, user, pending.id);
    if (!options) return errorResponse(c, 422, PASSKEY_MESSAGES.noPasskey);
    return c.json(options);
  });
}

/** The passkeys feature as server/app.ts mounts it, at full paths. */
export function passkeysFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/user/passkeys', passkeyRoutes(ctx))
    .route('/api/auth/passkey', passkeySignInRoutes(ctx))
    .route('/api/auth/two-factor', passkeySecondFactorRoutes(ctx));
}
