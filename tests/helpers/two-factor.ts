// Two-factor helpers for API tests: enrol a signed-in client through the real calls, play the authenticator
// app (codes computed from the secret the setup answered), and log in through both steps.
import type { App } from '../../server/app.ts';
import { totpCode, totpStep } from '../../server/features/two-factor/totp.ts';
import { DEFAULT_TEST_PASSWORD, createClient, type TestClient } from './auth.ts';
import { solveBotChallenge } from './botcheck.ts';

export interface Enrollment {
  secret: string;
  recoveryCodes: string[];
}

/** The app's code for `now`, `offset` steps away (drift tests). */
export function codeFor(secret: string, now: number, offset = 0): string {
  return totpCode(secret, totpStep(now) + offset);
}

/** Setup then enable with the current code; throws with the answer when a step fails. */
export async function enrollTwoFactor(client: TestClient, now: () => number): Promise<Enrollment> {
  const setup = await client.request('POST', '/api/user/two-factor/setup');
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}: ${await setup.text()}`);
  const { secret } = (await setup.json()) as { secret: string };
  const enable = await client.request('POST', '/api/user/two-factor/enable', { code: codeFor(secret, now()) });
  if (enable.status !== 200) throw new Error(`enable answered ${enable.status}: ${await enable.text()}`);
  const { recovery_codes } = (await enable.json()) as { recovery_codes: string[] };
  return { secret, recoveryCodes: recovery_codes };
}

/** The password step of a login: a fresh browser-like client and the answer. */
export async function passwordStep(
  app: App,
  email: string,
  options: { rememberMe?: boolean; password?: string } = {},
): Promise<{ client: TestClient; response: Response }> {
  const client = createClient(app);
  await client.fetchCsrfCookie();
  const response = await client.request('POST', '/api/auth/login', {
    email,
    password: options.password ?? DEFAULT_TEST_PASSWORD,
    remember_me: options.rememberMe ?? false,
    g_token: await solveBotChallenge(app),
  });
  return { client, response };
}
