// Passkey helpers for API tests: add a passkey through the real calls with the software authenticator, and
// sign in with one, the way the browser does (options, then the answer).
import type { App } from '../../server/app.ts';
import { createClient, DEFAULT_TEST_PASSWORD, type TestClient } from './auth.ts';
import type { RegistrationOptionsLike, SoftwareAuthenticator, CeremonyOverrides } from './passkey-authenticator.ts';

export async function registrationOptions(client: TestClient, password: string | undefined = DEFAULT_TEST_PASSWORD): Promise<RegistrationOptionsLike> {
  const response = await client.request('POST', '/api/user/passkeys/options', password === undefined ? {} : { password });
  if (response.status !== 200) throw new Error(`passkey options answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as RegistrationOptionsLike;
}

/** Options, the authenticator's answer, POST /api/user/passkeys: the raw answer of the last call. */
export async function addPasskey(client: TestClient, authenticator: SoftwareAuthenticator, options: { name?: string; overrides?: CeremonyOverrides } = {}) {
  const creation = await registrationOptions(client);
  return client.request('POST', '/api/user/passkeys', { name: options.name ?? 'My laptop', response: authenticator.register(creation, options.overrides) });
}

/** A fresh browser-like client that asks for sign-in options; the answer is left to the test. */
export async function signInOptions(app: App): Promise<{ client: TestClient; challenge: string; options: Record<string, unknown> }> {
  const client = createClient(app);
  await client.fetchCsrfCookie();
  const response = await client.request('POST', '/api/auth/passkey/options');
  if (response.status !== 200) throw new Error(`sign-in options answered ${response.status}: ${await response.text()}`);
  const options = (await response.json()) as { challenge: string };
  return { client, challenge: options.challenge, options };
}

export async function signInWithPasskey(app: App, authenticator: SoftwareAuthenticator, overrides: CeremonyOverrides = {}, rememberMe = false) {
  const { client, challenge } = await signInOptions(app);
  const response = await client.request('POST', '/api/auth/passkey', { response: authenticator.assert({ challenge }, overrides), remember_me: rememberMe });
  return { client, response };
}
