// Shared setup for the licensing API tests: the admin fixture (an admin and Ann, logged in), licenses made
// straight in the database, and a client that calls /api/licensing/v1 as the company's software does:
// JSON, no cookies, no XSRF header.
import { insertLicense } from '../../../../server/features/licensing/queries.ts';
import type { licenses } from '../../../../server/db/schema.ts';
import { type License } from '../../../../server/db/schema.ts';
import type { RawEnv } from '../../../../server/env.ts';
import type { PublicJwk } from '../../../../server/signing/signing-keys.ts';
import { DAY_MS } from '../../../../server/features/licensing/license-dates.ts';
import { createAdminFixture, type AdminFixture } from '../../admin/admin-fixture.ts';
import { captureConsole, expectNoLicenseKeyIn } from '../../../helpers/license-keys-in-logs.ts';

export const API = '/api/licensing/v1';
/** The fake clock's start (tests/helpers/test-context.ts). */
export const START = Date.UTC(2026, 0, 1);

export interface LicensingFixture extends AdminFixture {
  /** A license of Ann's: an active 30-day trial for 3 machines unless told otherwise. */
  license(fields?: Partial<typeof licenses.$inferInsert>): License;
  /** POST to the software's API; a string body is sent as it is. */
  call(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  jwks(): Promise<{ keys: PublicJwk[] }>;
  /** Everything printed to the console since the fixture was made (besides the context's logger lines). */
  consoleLines: string[];
  /** Fails when any license key of the database appears in a log line or console line; then cleans up. */
  finish(): void;
}

export async function createLicensingFixture(env: Partial<Record<keyof RawEnv, string>> = {}): Promise<LicensingFixture> {
  const printed = captureConsole();
  const consoleLines = printed.lines;
  const fixture = await createAdminFixture({ fakeClock: true, env });
  const { ctx } = fixture;
  return {
    ...fixture,
    consoleLines,
    license(fields = {}) {
      const activatedAt = new Date(ctx.now()).toISOString();
      return insertLicense(ctx.db, {
        license_type_id: fixture.typeId('trial'),
        user_id: fixture.user.user.id,
        active: 1,
        expire: 30,
        activated_at: activatedAt,
        expire_date: new Date(ctx.now() + 30 * DAY_MS).toISOString(),
        max_machines: 3,
        ...fields,
      });
    },
    async call(path, body, headers = {}) {
      return ctx.app.request(`${API}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async jwks() {
      return (await (await ctx.app.request(`${API}/keys`)).json()) as { keys: PublicJwk[] };
    },
    finish() {
      try {
        expectNoLicenseKeyIn([...ctx.logLines, ...consoleLines], ctx.db);
      } finally {
        printed.restore();
        ctx.cleanup();
      }
    },
  };
}

export async function body<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
