// Two-factor sign-in (docs/product/accounts.md#two-factor-sign-in): the dashboard's enrolment calls, the
// login's second step. The admins' setting is in admin.ts with the other admin calls.
import type { twoFactorLoginRoutes } from '../../../server/features/two-factor/routes.ts';
import type { twoFactorRoutes } from '../../../server/features/two-factor/routes.ts';
import type { AuthenticationResponseJSON } from '../webauthn.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type TwoFactorSetup = Answer<typeof twoFactorRoutes, '/setup', '$post'>;
export type RecoveryCodes = Answer<typeof twoFactorRoutes, '/enable', '$post'>;

export const startTwoFactorSetup = () => api.post<TwoFactorSetup>('/api/user/two-factor/setup');

export const enableTwoFactor = (code: string) => api.post<RecoveryCodes>('/api/user/two-factor/enable', { code });

export interface ConfirmInput {
  password: string;
  /** A code from the app, or a recovery code. */
  code: string;
}

/** 204 when done. */
export async function disableTwoFactor(input: ConfirmInput): Promise<void> {
  await api.post<unknown>('/api/user/two-factor/disable', input);
}

export const regenerateRecoveryCodes = (input: ConfirmInput) => api.post<RecoveryCodes>('/api/user/two-factor/recovery-codes', input);

/** The login's second step: `{ code }`, `{ recovery_code }` or `{ passkey_response }` (a passkey); answers like a login. */
export const completeTwoFactorLogin = (input: { code: string } | { recovery_code: string } | { passkey_response: AuthenticationResponseJSON }) =>
  api.post<Answer<typeof twoFactorLoginRoutes, '/two-factor', '$post'>>('/api/auth/two-factor', input);
