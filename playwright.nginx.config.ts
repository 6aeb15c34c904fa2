// The browser tests through the production front (issue 15, item 5; docs/decisions/0032-nginx-front.md): the
// real server on a fresh temp DATA_DIR with TRUST_PROXY=true, and Debian's nginx in front of it rendered from
// deploy/nginx.conf (tests/e2e-nginx/nginx-server.ts). Every page and request of tests/e2e-nginx goes through
// nginx; the parity spec also asks Node directly to compare.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.ts';
import { E2E_SERVER_ENV } from './tests/e2e/env.ts';
import { NGINX_ORIGIN, NODE_ORIGIN, NODE_PORT } from './tests/e2e-nginx/env.ts';
import { prepareDataDir } from './tests/e2e-nginx/nginx-server.ts';

const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'site-e2e-nginx-'));
process.env.E2E_DATA_DIR = dataDir;
// Before the server writes its first build: the builds folder nginx's user may read.
prepareDataDir(dataDir);

export default defineConfig({
  testDir: 'tests/e2e-nginx',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: NGINX_ORIGIN,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      // The service's umask (deploy/site.service): nginx's user (www-data under root) can read a build
      // only because the server makes it public, as in production.
      command: 'umask 077 && exec node server/index.ts',
      // Ready once the first build and its search index are both live (the index follows the first build:
      // docs/decisions/0058-first-build-search-after-live.md); the parity test compares the index's files too.
      url: `${NODE_ORIGIN}/pagefind/pagefind.js`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        HOST: '127.0.0.1',
        PORT: String(NODE_PORT),
        DATA_DIR: dataDir,
        CONTENT_DIR: path.join(dataDir, 'content'),
        // The site's address is nginx's: links in mail, CSRF origin checks and cookies follow it.
        SITE_URL: NGINX_ORIGIN,
        TRUST_PROXY: 'true',
        ...E2E_SERVER_ENV,
      },
    },
    {
      command: 'node tests/e2e-nginx/nginx-server.ts',
      url: `${NGINX_ORIGIN}/`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { E2E_DATA_DIR: dataDir },
    },
  ],
});
