// The browser's side of passkeys (docs/product/accounts.md#passkeys), through @simplewebauthn/browser, always
// imported on demand: public pages never load it; it comes with the account dialogs' chunk (`account-ui`,
// astro.config.mjs), which the login dialog and every island's page fetch (docs/engineering.md#keeping-public-pages-light). Nothing is fetched from
// anywhere else: the library is bundled with the site.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

const library = () => import('@simplewebauthn/browser');

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/** Whether this browser can make and use passkeys at all. */
export async function passkeysSupported(): Promise<boolean> {
  return (await library()).browserSupportsWebAuthn();
}

/** Whether the e-mail field's autofill can offer passkeys (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  return (await library()).browserSupportsWebAuthnAutofill();
}

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON> {
  return (await library()).startRegistration({ optionsJSON });
}

/** `autofill`: wait for the user to pick a passkey in the e-mail field's suggestions instead of opening a prompt. */
export async function assertPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
  options: { autofill?: boolean } = {},
): Promise<AuthenticationResponseJSON> {
  return (await library()).startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill ?? false });
}

/** Ends a waiting ceremony (the dialog closed, or another one starts). */
export async function cancelPasskeyCeremony(): Promise<void> {
  (await library()).WebAuthnAbortService.cancelCeremony();
}

/**
 * What to tell the user when the browser's ceremony did not finish: the library names the reason
 * (cancelled or timed out, a passkey of this account already on the device). Null: not a WebAuthn error.
 */
export function passkeyFailureMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'InvalidStateError' || ('code' in error && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')) {
    return 'This device already has a passkey for your account.';
  }
  if (
    error.name === 'NotAllowedError' ||
    error.name === 'AbortError' ||
    ('code' in error && typeof error.code === 'string' && error.code.startsWith('ERROR_'))
  ) {
    return 'The passkey request was cancelled or timed out.';
  }
  return null;
}
