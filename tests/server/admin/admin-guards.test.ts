// Every admin endpoint of issue 7 answers 401 to an anonymous visitor and 403 to a signed-in non-admin,
// and neither changes anything: no row, no session, no mail, no publish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousClient } from '../../helpers/accounts.ts';
import { readOutbox } from '../../helpers/mail.ts';
import { createRecordingPublisher, type RecordingPublisher } from '../../helpers/test-context.ts';
import { createUser } from '../../helpers/auth.ts';
import { createAdminFixture, json, type AdminFixture } from './admin-fixture.ts';

let fixture: AdminFixture;
let publisher: RecordingPublisher;
const ids = { victim: 0, license: 0, domain: 0, mailing: 0 };

beforeAll(async () => {
  publisher = createRecordingPublisher();
  fixture = await createAdminFixture({ publisher });
  const { ctx, admin } = fixture;
  ids.victim = (await createUser(ctx, { email: 'victim@example.test' })).id;
  ids.license = (
    await json<{ license: { id: number } }>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('perpetual'), user_id: ids.victim, active: 0 }),
    )
  ).license.id;
  ids.domain = (await json<{ domain: { id: number } }>(await admin.request('POST', '/api/admin/banned-domains/store', { domain: 'spam.test' }))).domain.id;
  ids.mailing = (
    await json<{ mailing: { id: number } }>(await admin.request('POST', '/api/admin/sendmailing', { users: [ids.victim], title: 'Hi', body: 'Body' }))
  ).mailing.id;
  publisher.reasons.length = 0;
});
afterAll(() => fixture.ctx.cleanup());

const endpoints: Array<{ method: string; path: () => string; body?: () => unknown }> = [
  { method: 'GET', path: () => '/api/license/getAll' },
  { method: 'GET', path: () => '/api/admin/users?sort=email&dir=-1' },
  { method: 'PUT', path: () => `/api/user/update/${ids.victim}`, body: () => ({ role: 'admin', is_banned: 1, name: 'Changed' }) },
  { method: 'DELETE', path: () => `/api/user/delete/${ids.victim}` },
  { method: 'PUT', path: () => `/api/user/suspend/${ids.victim}`, body: () => ({ is_banned: 1, id: ids.victim }) },
  { method: 'POST', path: () => '/api/license/store', body: () => ({ license_type_id: fixture.typeId('trial'), user_id: ids.victim, expire: 30 }) },
  {
    method: 'PUT',
    path: () => `/api/license/update/${ids.license}`,
    body: () => ({ license_type_id: fixture.typeId('perpetual'), user_id: ids.victim, active: 1 }),
  },
  { method: 'DELETE', path: () => `/api/license/delete/${ids.license}` },
  { method: 'GET', path: () => '/api/admin/banned-domains' },
  { method: 'POST', path: () => '/api/admin/banned-domains/store', body: () => ({ domain: 'other.test' }) },
  { method: 'DELETE', path: () => `/api/admin/banned-domains/delete/${ids.domain}` },
  { method: 'POST', path: () => '/api/admin/sendmailing', body: () => ({ users: 'all-verified', title: 'Spam', body: 'Spam' }) },
  { method: 'GET', path: () => '/api/admin/mailings' },
  { method: 'GET', path: () => `/api/admin/mailings/${ids.mailing}` },
  { method: 'GET', path: () => '/api/admin/sitemap' },
  { method: 'POST', path: () => '/api/admin/sitemap' },
];

/** Everything an admin endpoint could change, as one comparable value. */
function databaseState() {
  const { $client } = fixture.ctx.db;
  const dump = (table: string) => $client.prepare(`select * from ${table} order by rowid`).all();
  return ['users', 'sessions', 'licenses', 'banned_domains', 'mailings', 'mailing_recipients'].map((table) => [table, dump(table)]);
}

describe.each([
  { who: 'anonymous', status: 401 },
  { who: 'a signed-in user', status: 403 },
])('$who', ({ who, status }) => {
  it.each(endpoints.map((endpoint) => ({ ...endpoint, name: `${endpoint.method} ${endpoint.path()}` })))(
    `$name answers ${status} and changes nothing`,
    async ({ method, path, body }) => {
      const client = who === 'anonymous' ? await anonymousClient(fixture.ctx.app) : fixture.user;
      const before = databaseState();
      const mails = readOutbox(fixture.ctx.config.outboxDir).length;
      const response = await client.request(method, path(), body?.());
      expect(response.status).toBe(status);
      expect(await json(response)).toHaveProperty('message');
      expect(databaseState()).toEqual(before);
      expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(mails);
      expect(publisher.reasons).toEqual([]);
    },
  );
});

it('the admin gets through on every one of them (the table above tests real routes)', async () => {
  // Read-only ones only: the point is that the paths exist, so 401/403 above are the guards speaking.
  for (const endpoint of endpoints.filter((candidate) => candidate.method === 'GET')) {
    expect((await fixture.admin.request('GET', endpoint.path())).status, endpoint.path()).toBe(200);
  }
});
