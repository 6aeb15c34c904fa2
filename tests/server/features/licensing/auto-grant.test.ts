// Request License with the admin's "grant trials automatically to verified users" setting (issue 12,
// item 7): off by default, the request goes to the admin as before; on, a verified user without a license
// gets an active trial at once (mailed with its key), exactly one even with parallel requests or a grant
// committed by another process meanwhile; unverified users and users with a license still ask the admin.
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../../server/app.ts';
import { openDatabase } from '../../../../server/db/client.ts';
import { licenseEvents, licenses, users } from '../../../../server/db/schema.ts';
import { generateLicenseKey } from '../../../../server/auth/license-keys.ts';
import { saveLicensingSettings } from '../../../../server/features/licensing/settings.ts';
import { updateLicenseType } from '../../../../server/features/license-types/queries.ts';
import { createLogger } from '../../../../server/log.ts';
import { createMailer } from '../../../../server/mail/transport.ts';
import { createClient, createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { captureConsole, expectNoLicenseKeyIn } from '../../../helpers/license-keys-in-logs.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { createRecordingPublisher } from '../../../helpers/test-context.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

// Where admin notices go (the configured ADMIN_EMAIL; it comes with a password for the seeded admin).
const ADMIN_EMAIL = 'notices@example.test';

interface RequestAnswer {
  user: { id: number; license_request: number; license_granted: number };
  licenses: Array<{
    id: number;
    key: string | null;
    active: number;
    expire: number;
    expire_date: string | null;
    max_machines: number;
    status: { code: string; text: string };
  }>;
  granted: boolean;
  mail_sent: boolean | null;
}

let fixture: AdminFixture;
let logs: ReturnType<typeof captureConsole>;
beforeEach(async () => {
  logs = captureConsole();
  fixture = await createAdminFixture({ fakeClock: true, env: { ADMIN_EMAIL, ADMIN_PASSWORD: 'admin-password-123', LOG_LEVEL: 'debug' } });
});
afterEach(() => {
  try {
    expectNoLicenseKeyIn([...fixture.ctx.logLines, ...logs.lines], fixture.ctx.db);
  } finally {
    logs.restore();
    fixture.ctx.cleanup();
  }
});

const requestLicense = (client: LoggedInClient) => client.request('GET', `/api/user/request-license/${client.user.id}`);
const licensesOf = (userId: number) => fixture.ctx.db.select().from(licenses).where(eq(licenses.user_id, userId)).all();
const storedUser = (id: number) => fixture.ctx.db.select().from(users).where(eq(users.id, id)).get();
const autoGrantOn = (trialType: { max_machines?: number } = {}) => {
  saveLicensingSettings(fixture.ctx.db, { auto_grant_trials: 1 });
  // The trial's machine limit is the trial type's (issue 24, item 1).
  if (trialType.max_machines !== undefined) updateLicenseType(fixture.ctx.db, fixture.typeId('trial'), { max_machines: trialType.max_machines });
};

describe('automatic trials off (the default)', () => {
  it('keeps the request flow: request flag, mails to the admin and the user, no license', async () => {
    const { user } = fixture;
    const response = await requestLicense(user);
    expect(response.status).toBe(200);
    expect(await json<RequestAnswer>(response)).toMatchObject({
      user: { license_request: 1, license_granted: 0 },
      licenses: [],
      granted: false,
      mail_sent: null,
    });
    expect(licensesOf(user.user.id)).toEqual([]);
    const mails = readOutbox(fixture.ctx.config.outboxDir);
    // Every admin (the fixture's boss) and ADMIN_EMAIL hear of it (docs/product/admin.md#inbox).
    expect(mails.map((mail) => mail.to).sort()).toEqual(['ann@example.test', 'boss@example.test', ADMIN_EMAIL]);
    expect(mails.map((mail) => mail.subject).join()).toContain('License request from Ann');
  });
});

describe('automatic trials on', () => {
  it('grants an active trial at once, mails its key, records the event, and answers the user with the license', async () => {
    autoGrantOn({ max_machines: 2 });
    const { user } = fixture;
    const response = await requestLicense(user);
    expect(response.status).toBe(200);
    const answer = await json<RequestAnswer>(response);
    expect(answer).toMatchObject({
      user: { id: user.user.id, license_request: 0, license_granted: 1 },
      granted: true,
      mail_sent: true,
      licenses: [
        {
          active: 1,
          expire: 30,
          expire_date: '2026-01-31T00:00:00.000Z',
          max_machines: 2,
          status: { code: 'VALID', text: 'Trial – expires in 30 days' },
        },
      ],
    });
    const key = answer.licenses[0]?.key ?? '';
    expect(key).toMatch(/^DCTL-/);
    expect(storedUser(user.user.id)).toMatchObject({ license_request: 0, license_granted: 1 });

    // One mail, to the user, with the key; the admin has nothing to approve.
    const mails = readOutbox(fixture.ctx.config.outboxDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toContain('ann@example.test');
    expect(mails[0]?.subject).toContain('Your license is active');
    expect(mails[0]?.text).toContain(`License key: ${key}`);

    const [event] = fixture.ctx.db.select().from(licenseEvents).all();
    expect(event).toMatchObject({ actor_kind: 'system', actor_user_id: null, action: 'created' });
    expect(JSON.parse(event?.detail ?? '{}')).toMatchObject({ type: 'trial', auto_granted: true, max_machines: 2 });

    // Asking again: the trial is active, so today's answer.
    const again = await requestLicense(user);
    expect(again.status).toBe(422);
    expect(licensesOf(user.user.id)).toHaveLength(1);
  });

  it('grants exactly one trial to parallel requests, through two database connections', async () => {
    autoGrantOn();
    const { ctx, user } = fixture;
    // A second app on its own connection to the same file, as another serving process has.
    const db2 = openDatabase(ctx.config.databaseFile);
    const log2 = createLogger(ctx.config.logLevel, (line) => ctx.logLines.push(line));
    const mailer2 = createMailer({ config: ctx.config, log: log2, db: db2, now: ctx.now });
    const app2 = createApp({
      config: ctx.config,
      db: db2,
      log: log2,
      mailer: mailer2,
      publisher: createRecordingPublisher(),
      now: ctx.now,
      keyring: ctx.keyring,
      updateKeyring: ctx.updateKeyring,
      wake: ctx.wake,
      storage: ctx.storage,
    });
    const sameBrowser = createClient(app2);
    for (const [name, value] of user.cookies) sameBrowser.cookies.set(name, value);
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? requestLicense(user) : sameBrowser.request('GET', `/api/user/request-license/${user.user.id}`))),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 422)).toHaveLength(11);
      expect(licensesOf(user.user.id)).toHaveLength(1);
      expect(readOutbox(ctx.config.outboxDir)).toHaveLength(1);
    } finally {
      mailer2.close();
      db2.$client.close();
    }
  });

  it('decides inside the write lock: a license committed by another process while the request waited means no grant', async () => {
    autoGrantOn();
    const { ctx, user } = fixture;
    const perpetualTypeId = fixture.typeId('perpetual');
    // Another process (a worker thread with its own connection) holds the write lock while it stores an
    // inactive license for Ann; the request has to wait for its commit and must then see that license.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const Database = require('better-sqlite3');
       const db = new Database(workerData.file);
       db.pragma('busy_timeout = 5000');
       db.exec('BEGIN IMMEDIATE');
       db.prepare('insert into licenses (license_type_id, user_id, active, key) values (?, ?, 0, ?)').run(workerData.typeId, workerData.userId, workerData.key);
       parentPort.postMessage('locked');
       setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('committed'); }, 300);`,
      { eval: true, workerData: { file: ctx.config.databaseFile, typeId: perpetualTypeId, userId: user.user.id, key: generateLicenseKey() } },
    );
    const messages: string[] = [];
    const committed = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: string) => {
        messages.push(message);
        if (message === 'committed') resolve();
      });
      worker.on('error', reject);
    });
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));
    try {
      const response = await requestLicense(user);
      // The request could only run once the other process had committed.
      expect(messages).toEqual(['locked', 'committed']);
      expect(await json<RequestAnswer>(response)).toMatchObject({ granted: false, user: { license_request: 1 } });
      expect(licensesOf(user.user.id)).toHaveLength(1);
      expect(licensesOf(user.user.id)[0]).toMatchObject({ active: 0, license_type_id: perpetualTypeId });
    } finally {
      await committed;
      await worker.terminate();
    }
  });

  it('leaves unverified users and users with a license to the admin', async () => {
    autoGrantOn();
    const { ctx } = fixture;
    await createUser(ctx, { email: 'una@example.test', name: 'Una', verified: false });
    const una = await login(ctx.app, 'una@example.test');
    expect(await json<RequestAnswer>(await requestLicense(una))).toMatchObject({ granted: false, user: { license_request: 1 }, licenses: [] });
    expect(licensesOf(una.user.id)).toEqual([]);

    // A user who holds a license (here an inactive perpetual one) asks the admin.
    const { user } = fixture;
    await fixture.admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('perpetual'), user_id: user.user.id });
    expect(await json<RequestAnswer>(await requestLicense(user))).toMatchObject({ granted: false, user: { license_request: 1 } });
    expect(licensesOf(user.user.id)).toHaveLength(1);
  });

  it('grants a request made while the setting was off, once the admin turns it on', async () => {
    const { user } = fixture;
    await requestLicense(user);
    expect(licensesOf(user.user.id)).toEqual([]);
    const saved = await fixture.admin.request('PUT', '/api/admin/licensing-settings', { auto_grant_trials: 1 });
    expect(saved.status).toBe(200);
    expect(await json<RequestAnswer>(await requestLicense(user))).toMatchObject({ granted: true, user: { license_request: 0, license_granted: 1 } });
    expect(licensesOf(user.user.id)).toHaveLength(1);
  });
});
