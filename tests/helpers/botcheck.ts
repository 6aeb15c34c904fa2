// Bot-check helpers for API tests: get a challenge from the real route and solve it in-process, as the
// browser would, to obtain a g_token for login, register and contact requests. Set BOTCHECK_COST low in the
// test's env (e.g. createTestContext({ env: { BOTCHECK_COST: '1' } })) and a solve takes milliseconds.
import { solveChallenge, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

export const BOTCHECK_CHALLENGE_PATH = '/api/botcheck/challenge';

/** Anything that answers requests like Hono's `app.request`. */
export interface RequestHandler {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** The g_token string the widget submits: base64 of JSON {challenge, solution}. */
export function encodeBotToken(challenge: Pick<Challenge, 'parameters' | 'signature'>, solution: Solution): string {
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}

export async function fetchBotChallenge(app: RequestHandler, path = BOTCHECK_CHALLENGE_PATH): Promise<Challenge> {
  const response = await app.request(path);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Challenge;
}

export async function solveFetchedChallenge(challenge: Challenge): Promise<Solution> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error('bot-check challenge not solved within 20 s: is BOTCHECK_COST set low for tests?');
  return solution;
}

/** Fetches a challenge from the real route and returns a valid, unused g_token for it. */
export async function solveBotChallenge(app: RequestHandler, path = BOTCHECK_CHALLENGE_PATH): Promise<string> {
  const challenge = await fetchBotChallenge(app, path);
  return encodeBotToken(challenge, await solveFetchedChallenge(challenge));
}
