// A passkey as the login's second step (docs/product/accounts.md#two-factor-sign-in): POST /api/auth/two-factor
// with `passkey_response` (server/features/two-factor/routes.ts) comes here. The challenge must be the one
// POST /api/auth/two-factor/passkey-options gave this browser for this pending login, and the passkey one of
// that user's. The password already proved knowledge, so user presence is enough here.
import type { Context } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { checkAssertion, takeChallenge } from './ceremony.ts';
import type { AuthenticationResponse } from './fields.ts';
import { getPasskeyByCredentialId } from './queries.ts';

/** True when the answer proves one of `user`'s passkeys for the pending login `pendingId`. */
export async function acceptPasskeySecondFactor(
  c: Context<AppEnv>,
  ctx: AppContext,
  user: User,
  pendingId: string,
  response: AuthenticationResponse,
): Promise<boolean> {
  const challenge = takeChallenge(c, ctx, 'second-factor', { userId: user.id, boundTo: pendingId });
  if (challenge === undefined) return false;
  const passkey = getPasskeyByCredentialId(ctx.db, response.id);
  if (!passkey || passkey.user_id !== user.id) return false;
  return (await checkAssertion(ctx, user, passkey, response, { challenge, requireUserVerification: false })) === 'accepted';
}
