// Passkeys (docs/product/accounts.md#passkeys): the dashboard's list and its changes, signing in with a passkey,
// and the options of the login's second step (the step itself is completeTwoFactorLogin in two-factor.ts).
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { passkeyRoutes, passkeySignInRoutes } from '../../../server/features/passkeys/routes.ts';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '../webauthn.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type PasskeyList = Answer<typeof passkeyRoutes, '/', '$get'>;
export type PasskeyItem = PasskeyList['passkeys'][number];

export const listPasskeys = () => api.get<PasskeyList>('/api/user/passkeys', { loading: false });

/** The registration options; `password` unless the sign-in is fresh (the list says). */
export const passkeyRegistrationOptions = (password: string | undefined) =>
  api.post<PublicKeyCredentialCreationOptionsJSON>('/api/user/passkeys/options', password === undefined ? {} : { password });

export const savePasskey = (input: { name: string; response: RegistrationResponseJSON }) =>
  api.post<Answer<typeof passkeyRoutes, '/', '$post'>>('/api/user/passkeys', input);

export const renamePasskey = (id: number, name: string) => api.patch<unknown>(`/api/user/passkeys/${id}`, { name });

/** 204 when removed. */
export async function removePasskey(id: number, password: string | undefined): Promise<void> {
  await api.delete<unknown>(`/api/user/passkeys/${id}`, password === undefined ? {} : { password });
}

export const passkeySignInOptions = (options: { loading?: boolean } = {}) =>
  api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', undefined, options);

/** Signs in with a passkey alone: answers like a login. */
export const signInWithPasskey = (input: { response: AuthenticationResponseJSON; remember_me: boolean }) =>
  api.post<Answer<typeof passkeySignInRoutes, '/', '$post'>>('/api/auth/passkey', input);

/** Options for the login's second step, bound to the pending login of this browser. */
export const secondFactorPasskeyOptions = () => api.post<PublicKeyCredentialRequestOptionsJSON>('/api/auth/two-factor/passkey-options');
