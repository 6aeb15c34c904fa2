// The heavy half of the bot check, loaded on demand by ./botcheck.ts: altcha's solver, run in parallel Web
// Workers so the page stays responsive, or on the main thread where workers are unavailable (old
// browsers, a strict CSP, tests under Node).
import { pbkdf2, solveChallenge, solveChallengeWorkers } from 'altcha/lib';
import type { Challenge, Solution } from 'altcha/types';

/** Give up after this long; the server's challenge lives 10 minutes, a user would not wait 1. */
const SOLVE_TIMEOUT_MS = 60_000;

function workerCount(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  // More workers than cores only adds overhead; four already make a solve near-instant on a laptop.
  return Math.max(1, Math.min(4, cores));
}

async function solveInWorkers(challenge: Challenge, controller: AbortController): Promise<Solution | null> {
  // Vite bundles altcha's self-contained worker script as our own asset: nothing loads from elsewhere.
  const { default: Pbkdf2Worker } = await import('altcha/workers/pbkdf2?worker');
  return solveChallengeWorkers({
    challenge,
    concurrency: workerCount(),
    controller,
    createWorker: () => new Pbkdf2Worker(),
    timeout: SOLVE_TIMEOUT_MS,
  });
}

function solveOnMainThread(challenge: Challenge, controller: AbortController): Promise<Solution | null> {
  return solveChallenge({ challenge, controller, deriveKey: pbkdf2.deriveKey, timeout: SOLVE_TIMEOUT_MS });
}

/** Solves a challenge; null when aborted or timed out. */
export async function solveBotChallenge(challenge: Challenge, signal?: AbortSignal): Promise<Solution | null> {
  const controller = new AbortController();
  signal?.addEventListener('abort', () => controller.abort(), { once: true });
  if (typeof Worker !== 'undefined') {
    try {
      return await solveInWorkers(challenge, controller);
    } catch {
      // Workers refused (CSP, sandbox, out of memory): the main thread is slower but still works.
      if (controller.signal.aborted) return null;
    }
  }
  return solveOnMainThread(challenge, controller);
}
