// The WebAuthn ceremonies with @simplewebauthn/server (docs/decisions/0043-passkeys.md), shared by the routes of
// this feature and the login's second step (server/features/two-factor/routes.ts): the relying party, the
// challenge (one browser, once, 5 minutes) and the check of an assertion with its signature counter.
import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import type { VerifiedAuthenticationResponse } from '@simplewebauthn/server';
import { loadWebAuthn } from '../../lazy-libraries.ts';
import type { AppContext, AppEnv } from '../../context.ts';
import type { Config } from '../../env.ts';
import type { Passkey, User } from '../../db/schema.ts';
import { clearPasskeyChallengeCookie, readPasskeyChallengeCookie, setPasskeyChallengeCookie } from '../../auth/cookies.ts';
import { getServerSecret } from '../../auth/server-secret.ts';
import { generateSessionToken, sessionIdFromToken } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { sendSafely } from '../../mail/transport.ts';
import { passkeyCloneSuspectedEmail } from '../../mail/templates.ts';
import type { AuthenticationResponse } from './fields.ts';
import { insertPasskeyChallenge, listPasskeysOfUser, markPasskeySuspectedClone, recordPasskeyUse, takePasskeyChallenge } from './queries.ts';

/** How long a challenge may wait for its answer; the browser's own timeout is the same. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;

/** 'register': adding a passkey; 'sign-in': a passkey alone; 'second-factor': after the password. */
export type ChallengePurpose = 'register' | 'sign-in' | 'second-factor';

/**
 * The relying party: its id is SITE_URL's host and the only origin accepted is SITE_URL's, both compared
 * exactly, so an answer made for any other site (a phishing page included) fails.
 */
export function relyingParty(config: Pick<Config, 'siteUrl' | 'siteOrigin' | 'siteName'>) {
  return { id: new URL(config.siteUrl).hostname, origin: config.siteOrigin, name: config.siteName };
}

/**
 * The WebAuthn user handle: stable per account so an authenticator replaces its passkey for us rather than
 * keeping two, and opaque (an HMAC of the id with a server secret) because authenticators show and sync it.
 */
export function userHandleOf(ctx: Pick<AppContext, 'db'>, userId: number): Uint8Array<ArrayBuffer> {
  const digest = createHmac('sha256', getServerSecret(ctx.db, 'passkeys.user_handle')).update(String(userId)).digest();
  return new Uint8Array(digest);
}

/** Stores the challenge as the SHA-256 of a random token and gives the token to this browser only. */
export function issueChallenge(
  c: Context<AppEnv>,
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  challenge: string,
  binding: { purpose: ChallengePurpose; userId: number | null; boundTo: string | null },
): void {
  const token = generateSessionToken();
  const now = ctx.now();
  insertPasskeyChallenge(
    ctx.db,
    {
      id: sessionIdFromToken(token),
      purpose: binding.purpose,
      challenge,
      user_id: binding.userId,
      bound_to: binding.boundTo,
      expires_at: now + CHALLENGE_LIFETIME_MS,
    },
    now,
  );
  setPasskeyChallengeCookie(c, ctx.config, token, CHALLENGE_LIFETIME_MS / 1000);
}

/**
 * The challenge this browser was given for `purpose`, spent now whatever follows; undefined when there is
 * none, it expired, or it belongs to another user, session or pending login.
 */
export function takeChallenge(
  c: Context<AppEnv>,
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  purpose: ChallengePurpose,
  binding: { userId: number | null; boundTo: string | null },
): string | undefined {
  const token = readPasskeyChallengeCookie(c, ctx.config);
  clearPasskeyChallengeCookie(c, ctx.config);
  if (token === undefined) return undefined;
  const row = takePasskeyChallenge(ctx.db, sessionIdFromToken(token), purpose);
  if (!row || row.expires_at <= ctx.now()) return undefined;
  if (binding.userId !== null && row.user_id !== binding.userId) return undefined;
  if (binding.boundTo !== null && row.bound_to !== binding.boundTo) return undefined;
  return row.challenge;
}

/** Options for signing in: no allowCredentials, so the browser offers whichever passkeys it holds for us. */
export async function signInOptions(c: Context<AppEnv>, ctx: AppContext) {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx.config).id, userVerification: 'required', timeout: CHALLENGE_LIFETIME_MS });
  issueChallenge(c, ctx, options.challenge, { purpose: 'sign-in', userId: null, boundTo: null });
  return options;
}

/** Options for the second step after the password: only this user's passkeys, bound to the pending login. */
export async function secondFactorOptions(c: Context<AppEnv>, ctx: AppContext, user: User, pendingId: string) {
  const allowCredentials = listPasskeysOfUser(ctx.db, user.id)
    .filter((passkey) => !passkey.suspected_clone_at)
    .map((passkey) => ({ id: passkey.credential_id, transports: JSON.parse(passkey.transports) as string[] }));
  if (allowCredentials.length === 0) return null;
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.config).id,
    allowCredentials,
    userVerification: 'preferred',
    timeout: CHALLENGE_LIFETIME_MS,
  });
  issueChallenge(c, ctx, options.challenge, { purpose: 'second-factor', userId: user.id, boundTo: pendingId });
  return options;
}

export type AssertionOutcome = 'accepted' | 'invalid' | 'cloned';

/**
 * Checks an assertion of `passkey` against `challenge`: signature, origin, rp id, user presence (and user
 * verification when asked), then the signature counter. The library's own counter check only throws; ours
 * runs after the signature is proven, so a forged answer cannot get someone's passkey refused: a counter
 * that does not go up (when either is non-zero) marks the passkey as a possible copy, refuses it from then
 * on and tells the owner (WebAuthn level 3, §6.1.1).
 */
export async function checkAssertion(
  ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'log'>,
  owner: Pick<User, 'email' | 'name'>,
  passkey: Passkey,
  response: AuthenticationResponse,
  input: { challenge: string; requireUserVerification: boolean },
): Promise<AssertionOutcome> {
  if (passkey.suspected_clone_at) return 'cloned';
  const rp = relyingParty(ctx.config);
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  let verification: VerifiedAuthenticationResponse;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: input.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      expectedType: 'webauthn.get',
      requireUserVerification: input.requireUserVerification,
      credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, 'base64url'), counter: 0 },
    });
  } catch {
    // A malformed or foreign answer: the library throws with its reason; the caller says "not verified".
    return 'invalid';
  }
  if (!verification.verified) return 'invalid';
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const atIso = new Date(ctx.now()).toISOString();
  if ((newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter) {
    writeTransaction(ctx.db, () => markPasskeySuspectedClone(ctx.db, passkey.id, atIso));
    ctx.log.warn(`Passkey ${passkey.id} of user ${passkey.user_id} refused: its counter went from ${passkey.counter} to ${newCounter}`);
    void sendSafely(ctx.mailer, { to: owner.email, ...passkeyCloneSuspectedEmail(ctx.config, { name: owner.name }) }, ctx.log);
    return 'cloned';
  }
  const recorded = writeTransaction(ctx.db, () => recordPasskeyUse(ctx.db, passkey, { counter: newCounter, backedUp: credentialBackedUp, atIso }));
  return recorded ? 'accepted' : 'invalid';
}
