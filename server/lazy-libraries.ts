// The libraries only some requests need, loaded on their first use instead of at the start of every serving
// process (docs/decisions/0076-libraries-loaded-on-first-use.md): together they were about a quarter of the
// modules a process loaded before it could serve, and tens of megabytes of each process's memory, for passkeys,
// image uploads, two-factor enrolment, mail, update feeds, markdown and a bucket that most processes never or
// rarely run. A test keeps them out of the start (tests/server/process/start-imports.test.ts): import them here,
// never at a module's top.

import { createRequire } from 'node:module';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';

/**
 * The module's promise, kept: every call after the first costs an already resolved promise, not another pass
 * through the module loader (the mailing's sends and the update checks ask on every message and answer). A
 * failed load is not kept, so the next call tries again. Also what makes a library's client on first use
 * (the mail transport, the bucket's S3 client).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/** Image decoding and encoding (uploads, the demo's slideshow); its native library is the largest of these. */
export const loadSharp = onFirstUse(async () => (await import('sharp')).default);

/** Passkey ceremonies (docs/product/accounts.md#passkeys). */
export const loadWebAuthn = onFirstUse(() => import('@simplewebauthn/server'));

/** The QR code of two-factor enrolment. */
export const loadQrCode = onFirstUse(async () => (await import('qrcode')).default);

/** Mail transports: the first message a process sends loads it. */
export const loadNodemailer = onFirstUse(async () => (await import('nodemailer')).default);

/** electron-updater's latest.yml (docs/updates.md). */
export const loadYaml = onFirstUse(() => import('yaml'));

/** The AWS SDK's S3 client, uploads and presigner: only a bucket store (STORAGE=s3) calls it, at its first call. */
export const loadAwsSdk = onFirstUse(async () => {
  const [s3, storage, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]);
  return { ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
});

/** The one markdown pipeline (common/markdown/), for what the server renders itself: mailings and release notes. */
export const loadMarkdown = onFirstUse(() => import('../common/markdown/index.ts'));

const requireOnFirstUse = createRequire(import.meta.url);

/**
 * The ~49,000 most common passwords (zxcvbn-ts, ~20 MB resident once loaded), for the password rules. They
 * are checked inside a synchronous zod refinement, so the list is required (its CommonJS build), not imported:
 * still on first use, by the first password a process checks.
 */
export function commonPasswordList(): readonly string[] {
  return (requireOnFirstUse('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon).dictionary['passwords-common'];
}
