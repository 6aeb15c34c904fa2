// Shared setup for the admin API tests: a fresh app with the license types, one admin and one ordinary
// user, both logged in through the real login route.
import { eq } from 'drizzle-orm';
import { ensureLicenseTypes } from '../../../server/features/license-types/index.ts';
import { licenseTypes, users } from '../../../server/db/schema.ts';
import type { RawEnv } from '../../../server/env.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { createUser, login, type LoggedInClient } from '../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

export interface AdminFixture {
  ctx: TestContext;
  admin: LoggedInClient;
  user: LoggedInClient;
  typeId: (name: 'trial' | 'perpetual') => number;
  stored: (id: number) => typeof users.$inferSelect | undefined;
}

export async function createAdminFixture(
  options: { env?: Partial<Record<keyof RawEnv, string>>; publisher?: Publisher; fakeClock?: boolean } = {},
): Promise<AdminFixture> {
  const ctx = createTestContext(options);
  ensureLicenseTypes(ctx.db);
  await createUser(ctx, { email: 'boss@example.test', name: 'Boss', role: 'admin' });
  await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
  const admin = await login(ctx.app, 'boss@example.test');
  const user = await login(ctx.app, 'ann@example.test');
  return {
    ctx,
    admin,
    user,
    typeId: (name) => {
      const row = ctx.db.select().from(licenseTypes).where(eq(licenseTypes.name, name)).get();
      if (!row) throw new Error(`license type ${name} missing`);
      return row.id;
    },
    stored: (id) => ctx.db.select().from(users).where(eq(users.id, id)).get(),
  };
}

/** The answer's JSON, typed loosely for assertions. */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
