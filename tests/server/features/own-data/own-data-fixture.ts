// Shared setup for the own-data tests (export and account deletion): the admin fixture's admin (Boss) and
// user (Ann, verified, signed in), plus one of each thing the export lists for Ann, and the same kinds of
// things for someone else (Bob), which must neither appear in Ann's export nor go with her account.
import { insertContactMessage } from '../../../../server/features/contact/queries.ts';
import { insertDownloadItem, insertReleaseFile, recordDownload } from '../../../../server/features/downloads/queries.ts';
import { insertMachine } from '../../../../server/features/licensing/queries.ts';
import { insertMailing, insertRecipients, markRecipientSent } from '../../../../server/features/mailings/queries.ts';
import { setLicenseRequest } from '../../../../server/db/queries/users.ts';
import { createUser } from '../../../helpers/auth.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

export interface OwnDataFixture extends AdminFixture {
  bobId: number;
  annLicenseId: number;
  bobLicenseId: number;
  count: (table: string, where?: string) => number;
}

export async function createOwnDataFixture(options: { fakeClock?: boolean } = {}): Promise<OwnDataFixture> {
  const fixture = await createAdminFixture(options);
  const { ctx, admin, user: ann } = fixture;
  const bob = await createUser(ctx, { email: 'bob@example.test', name: 'Bob' });
  const nowIso = new Date(ctx.now()).toISOString();

  const store = async (userId: number) => {
    const response = await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: userId, expire: 30 });
    if (response.status >= 300) throw new Error(`license store answered ${response.status}: ${await response.text()}`);
    const answer = await json<{ license?: { id: number }; licenses?: Array<{ id: number; user_id: number }> }>(response);
    const id = answer.license?.id ?? answer.licenses?.find((license) => license.user_id === userId)?.id;
    if (!id) throw new Error(`no license id in ${JSON.stringify(answer)}`);
    return id;
  };
  const annLicenseId = await store(ann.user.id);
  const bobLicenseId = await store(bob.id);
  const machine = {
    fingerprint: 'ann-laptop-fp',
    name: 'Ann laptop',
    platform: 'linux',
    activated_at: nowIso,
    last_check_in_at: nowIso,
    lease_expires_at: nowIso,
  };
  insertMachine(ctx.db, { ...machine, license_id: annLicenseId });
  insertMachine(ctx.db, { ...machine, license_id: bobLicenseId, fingerprint: 'bob-fp', name: 'Bob desktop' });
  setLicenseRequest(ctx.db, ann.user.id, true, nowIso);

  const release = insertDownloadItem(ctx.db, { title: 'Suite 2', release: '2.0', downloadable: 1 });
  const file = insertReleaseFile(ctx.db, {
    download_item_id: release.id,
    name: 'suite-2.0.zip',
    stored_name: '1'.repeat(32),
    size: 1,
    sha256: '',
    platform: 'any',
    arch: 'universal',
  });
  const day = nowIso.slice(0, 10);
  for (const userId of [ann.user.id, bob.id]) {
    recordDownload(ctx.db, {
      download_item_id: release.id,
      release_file_id: file.id,
      platform: 'any',
      downloader: `user:${userId}`,
      user_id: userId,
      license_id: null,
      day,
    });
  }

  const sent = insertMailing(ctx.db, { title: 'Autumn news', body: 'Hello', created_by: admin.user.id, atIso: nowIso });
  const pending = insertMailing(ctx.db, { title: 'Not yet sent', body: 'Later', created_by: admin.user.id, atIso: nowIso });
  insertRecipients(
    ctx.db,
    sent.id,
    [
      { user_id: ann.user.id, email: ann.user.email },
      { user_id: bob.id, email: bob.email },
    ],
    0,
  );
  insertRecipients(ctx.db, pending.id, [{ user_id: ann.user.id, email: ann.user.email }], 0);
  markRecipientSent(ctx.db, { mailing_id: sent.id, user_id: ann.user.id }, nowIso);
  markRecipientSent(ctx.db, { mailing_id: sent.id, user_id: bob.id }, nowIso);

  // Written with another letter case: the address is the same mailbox.
  insertContactMessage(ctx.db, { name: 'Ann', email: 'ANN@example.test', message: 'Do you ship to Malta?', ip: '203.0.113.7', created_at: nowIso });
  insertContactMessage(ctx.db, { name: 'Bob', email: 'bob@example.test', message: 'Bob asks something', ip: null, created_at: nowIso });

  const count = (table: string, where = '1') => (ctx.db.$client.prepare(`select count(*) as n from ${table} where ${where}`).get() as { n: number }).n;
  return { ...fixture, bobId: bob.id, annLicenseId, bobLicenseId, count };
}
