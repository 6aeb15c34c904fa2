// Shared by playwright.config.ts and the browser tests: where the product under test runs.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password-1' };

/**
 * What every browser suite (playwright.config.ts, playwright.nginx.config.ts) sets on the server beside its
 * own address: the known admin, a cheap bot check, and limits raised because every test comes from
 * 127.0.0.1 and the same admin signs in for nearly every test (the defaults would throttle the suite:
 * 10 sign-ups an hour, 20 bot-check derivations a minute, 20 logins per account in 15 minutes).
 */
export const E2E_SERVER_ENV = {
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  BOTCHECK_COST: '500',
  REGISTRATIONS_PER_HOUR: '1000',
  CONTACT_MESSAGES_PER_10_MINUTES: '1000',
  BOTCHECK_VERIFY_PER_MINUTE: '100000',
  ACCOUNT_LOGINS_PER_15_MINUTES: '100000',
  ASTRO_TELEMETRY_DISABLED: '1',
  LOG_LEVEL: 'warn',
  // The integrations' browser test sends webhooks to a receiver on this machine (docs/integrations.md#delivery).
  WEBHOOKS_ALLOW_PRIVATE: 'true',
} as const;

/**
 * The STORAGE=s3 pass (`E2E_STORAGE=s3 npx playwright test tests/e2e/content-admin.spec.ts tests/e2e/downloads.spec.ts
 * tests/e2e/releases.spec.ts`, .ci/run):
 * playwright.config.ts starts s3rver (tests/e2e/s3-server.ts) on this port and points the server at it.
 */
export const E2E_STORAGE = process.env.E2E_STORAGE === 's3' ? 's3' : 'local';
export const E2E_S3_PORT = Number(process.env.E2E_S3_PORT ?? E2E_PORT + 1000);
export const E2E_S3_BUCKET = 'site-e2e';

export const E2E_S3_ENV = {
  STORAGE: 's3',
  S3_ENDPOINT: `http://127.0.0.1:${E2E_S3_PORT}`,
  S3_REGION: 'us-east-1',
  S3_BUCKET: E2E_S3_BUCKET,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
} as const;
