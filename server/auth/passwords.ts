// Password hashing: argon2id with the OWASP Password Storage Cheat Sheet parameters (docs/engineering.md#technology-choices).
// Async on purpose: @node-rs/argon2 runs the ~10 ms hash on libuv's thread pool, not the event loop.
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum, which type stripping cannot inline; 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;

export const PASSWORD_HASH_OPTIONS: Readonly<Options> = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** True when `password` matches `passwordHash`; a malformed stored hash counts as a mismatch, not a crash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification and always fails. Login calls it for an unknown e-mail so
 * the answer takes as long as a wrong password would, and timing does not reveal which e-mails exist.
 */
export async function verifyAgainstDummyHash(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that no account ever has');
  await verifyPassword(await dummyHash, password);
  return false;
}
