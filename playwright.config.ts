// Browser tests drive Debian's Chromium (never a downloaded browser: there is no internet here) against
// the real product started on a fresh temporary DATA_DIR with a known admin.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';
import { E2E_PORT, E2E_S3_ENV, E2E_S3_PORT, E2E_SERVER_ENV, E2E_STORAGE } from './tests/e2e/env.ts';

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
  // With E2E_STORAGE=s3 the stored files live in a bucket (s3rver, started first): the pass .ci/run makes
  // over the specs of images, attached files and release files (docs/decisions/0050-object-storage.md).
  webServer: [
    ...(E2E_STORAGE === 's3'
      ? [
          {
            command: 'node tests/e2e/s3-server.ts',
            url: `http://127.0.0.1:${E2E_S3_PORT}/`,
            timeout: 30_000,
            reuseExistingServer: false,
            stdout: 'pipe' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
    {
      command: 'node server/index.ts',
      // Ready once the first build and its search index are both live: the first build goes live before its
      // index (docs/decisions/0058-first-build-search-after-live.md), and the search tests need the index.
      url: `http://localhost:${E2E_PORT}/pagefind/pagefind.js`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(E2E_PORT),
        DATA_DIR: dataDir,
        CONTENT_DIR: path.join(dataDir, 'content'),
        SITE_URL: `http://localhost:${E2E_PORT}`,
        ...E2E_SERVER_ENV,
        ...(E2E_STORAGE === 's3' ? E2E_S3_ENV : {}),
      },
    },
  ],
});
