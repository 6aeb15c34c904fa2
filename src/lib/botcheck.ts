// The invisible bot check in the browser (docs/product/routes.md#navigation-bar, docs/product/accounts.md#contact-form, issue 3 item 1): on submit, fetch a fresh
// challenge from our own server, solve it, and send the result as `g_token` with the form. Nothing is
// fetched from anywhere else. The solver (altcha's proof-of-work code and its Web Worker) is a separate
// chunk loaded on first use; call preloadBotCheck() when a form opens so it is ready by the time the
// user presses submit.
//
// Usage in an island:
//   const g_token = await solveBotCheck();          // throws BotCheckError when it cannot be done
//   await apiRequest('POST', '/api/auth/login', { email, password, remember_me, g_token });
// Each token works once: solve again for every submit (docs/product/states.md: "the bot check resets after each token").
import type { Challenge, Solution } from 'altcha/types';
import type * as Solver from './botcheck-solver.ts';

export const BOTCHECK_CHALLENGE_URL = '/api/botcheck/challenge';

/** Shown as the form's general message when the check cannot run. */
export const BOTCHECK_UNAVAILABLE_MESSAGE = 'The bot check could not be completed. Please try again.';

export class BotCheckError extends Error {}

export interface SolveBotCheckOptions {
  signal?: AbortSignal;
  /** For tests: answer the challenge request some other way (e.g. Hono's app.request). */
  fetch?: (url: string, init?: RequestInit) => Promise<Response>;
}

let solverModule: Promise<typeof Solver> | undefined;

function loadSolver() {
  solverModule ??= import('./botcheck-solver.ts');
  return solverModule;
}

/** Starts loading the solver chunk without waiting for it (e.g. when the login modal opens). */
export function preloadBotCheck(): void {
  loadSolver().catch(() => {
    // A failed preload is retried by solveBotCheck, which reports the error properly.
    solverModule = undefined;
  });
}

async function fetchChallenge(options: SolveBotCheckOptions): Promise<Challenge> {
  const request = options.fetch ?? ((url, init) => fetch(url, init));
  const response = await request(BOTCHECK_CHALLENGE_URL, {
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    signal: options.signal,
  });
  if (!response.ok) throw new BotCheckError(BOTCHECK_UNAVAILABLE_MESSAGE);
  return (await response.json()) as Challenge;
}

/** The string the server's requireBotToken reads from `g_token`: base64 of JSON {challenge, solution}. */
export function encodeBotToken(challenge: Challenge, solution: Solution): string {
  // Only ASCII (hex strings and numbers), so btoa is safe here.
  return btoa(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution }));
}

/** Fetches a challenge and solves it; resolves to a one-time g_token. */
export async function solveBotCheck(options: SolveBotCheckOptions = {}): Promise<string> {
  try {
    const [challenge, solver] = await Promise.all([fetchChallenge(options), loadSolver()]);
    const solution = await solver.solveBotChallenge(challenge, options.signal);
    if (!solution) throw new BotCheckError(BOTCHECK_UNAVAILABLE_MESSAGE);
    return encodeBotToken(challenge, solution);
  } catch (error) {
    if (error instanceof BotCheckError || options.signal?.aborted) throw error;
    solverModule = undefined;
    throw new BotCheckError(BOTCHECK_UNAVAILABLE_MESSAGE, { cause: error });
  }
}
