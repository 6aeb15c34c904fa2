// Data for the releases browser tests (issue 25), made through the real API as an admin would: a license
// type with an entitlement, a license of it for a verified user (accounts-support.ts) with a maintenance
// end, and releases with versions, dates, gates and files per platform.
import crypto from 'node:crypto';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { logInThroughApi, xsrfHeaders } from './accounts-support.ts';
import { E2E_ADMIN } from './env.ts';

export interface SeededFile {
  id: number;
  name: string;
  platform: string;
  arch: string;
  bytes: Buffer;
  sha256: string;
}

export interface SeededRelease {
  id: number;
  title: string;
  version: string;
  files: SeededFile[];
}

export function fileBytes(label: string): { bytes: Buffer; sha256: string } {
  const bytes = Buffer.concat([Buffer.from(`${label}\n`), crypto.randomBytes(2048)]);
  return { bytes, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

export async function adminContext(browser: Browser, width = 1280): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await logInThroughApi(context.request, E2E_ADMIN.email, E2E_ADMIN.password);
  return context;
}

async function ok(response: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<Record<string, unknown>> {
  const text = await response.text();
  expect(response.status(), text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A type of two machines (two floating seats with `floating`) that never expires, with a year of updates. */
export async function createLicenseType(admin: APIRequestContext, name: string, entitlements: string[], options: { floating?: boolean } = {}): Promise<number> {
  const body = await ok(
    await admin.post('/api/license/types', {
      headers: await xsrfHeaders(admin),
      data: { name, entitlements, max_machines: '2', duration_days: '0', maintenance_days: '365', floating: options.floating ? 1 : 0, lease_minutes: '15' },
    }),
    201,
  );
  return (body.license_type as { id: number }).id;
}

/** The user's id, as the admin's list knows it. */
export async function userIdOf(admin: APIRequestContext, email: string): Promise<number> {
  const body = await ok(await admin.get('/api/license/getAll'));
  const user = (body.users as { id: number; email: string }[]).find((entry) => entry.email === email);
  expect(user, `user ${email}`).toBeTruthy();
  return user!.id;
}

export async function grantLicense(admin: APIRequestContext, input: { userId: number; typeId: number; maintenanceUntil: string }): Promise<number> {
  const body = await ok(
    await admin.post('/api/license/store', {
      headers: await xsrfHeaders(admin),
      data: { user_id: input.userId, license_type_id: input.typeId, active: 1, maintenance_until: input.maintenanceUntil },
    }),
    201,
  );
  return (body.license as { id: number }).id;
}

interface ReleaseSpec {
  title: string;
  body: string;
  version: string;
  released_at: string;
  entitlement: string;
  downloadable: boolean;
  channel?: 'stable' | 'beta';
  /** The first file ('any', 'universal'); further ones by platform. */
  files: { platform: string; arch: string; label: string }[];
}

/** A release through the admin's store endpoint and its further files through the files endpoint. */
export async function createRelease(admin: APIRequestContext, spec: ReleaseSpec): Promise<SeededRelease> {
  const [first, ...others] = spec.files;
  const firstBytes = first ? fileBytes(first.label) : null;
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    title: spec.title,
    body: spec.body,
    release: '',
    is_current: '0',
    downloadable: spec.downloadable ? '1' : '0',
    version: spec.version,
    channel: spec.channel ?? 'stable',
    released_at: spec.released_at,
    entitlement: spec.entitlement,
  };
  if (first && firstBytes) multipart.file = { name: `${first.label}.bin`, mimeType: 'application/octet-stream', buffer: firstBytes.bytes };
  const stored = await ok(await admin.post('/api/downloads/store', { headers: await xsrfHeaders(admin), multipart }), 201);
  const release = stored.release as { id: number; files: { id: number; name: string; platform: string; arch: string }[] };
  const files: SeededFile[] = release.files.map((file) => ({ ...file, bytes: firstBytes!.bytes, sha256: firstBytes!.sha256 }));
  for (const other of others) {
    const { bytes, sha256 } = fileBytes(other.label);
    const added = await ok(
      await admin.post(`/api/downloads/${release.id}/files`, {
        headers: await xsrfHeaders(admin),
        multipart: { platform: other.platform, arch: other.arch, file: { name: `${other.label}.bin`, mimeType: 'application/octet-stream', buffer: bytes } },
      }),
      201,
    );
    files.push({ ...(added.file as { id: number; name: string; platform: string; arch: string }), bytes, sha256 });
  }
  return { id: release.id, title: spec.title, version: spec.version, files };
}

export async function deleteRelease(admin: APIRequestContext, id: number): Promise<void> {
  await admin.delete('/api/downloads/delete', { headers: await xsrfHeaders(admin), data: { id } });
}

/** The page does not scroll sideways: nothing is wider than the window. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.content).toBeLessThanOrEqual(widths.window);
}

/** Waits until the publish started by the last write is live (the admin's status on /downloads says so). */
export async function waitForPublish(admin: APIRequestContext): Promise<void> {
  await expect
    .poll(
      async () => {
        const status = (await (await admin.get('/api/admin/publish')).json()) as { state: string; pending: boolean };
        return status.state !== 'building' && !status.pending;
      },
      { timeout: 120_000 },
    )
    .toBe(true);
}
