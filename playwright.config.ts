// Browser tests drive Debian's Chromium (never a downloaded browser: there is no internet here) against
// the real product started on a fresh temporary DATA_DIR with a known admin.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';
import { E2E_ADMIN, E2E_PORT } from './tests/e2e/env.ts';

const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node server/index.ts',
    url: `http://localhost:${E2E_PORT}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dataDir, 'content'),
      SITE_URL: `http://localhost:${E2E_PORT}`,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      BOTCHECK_COST: '500',
      // Every browser test signs up from 127.0.0.1; the default 10 an hour would throttle the suite.
      REGISTRATIONS_PER_HOUR: '1000',
      // Likewise every bot check: 20 derivations a minute per address would throttle the suite.
      BOTCHECK_VERIFY_PER_MINUTE: '100000',
      // And the admin signs in for nearly every test: 20 logins per account in 15 minutes would lock it out.
      ACCOUNT_LOGINS_PER_15_MINUTES: '100000',
      ASTRO_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
